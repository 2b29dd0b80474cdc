import TestSupport
import Testing

/// site.json's `trustedMarkdownHTML` as content (what it does to pages is StudySiteTests' MarkdownTrustTests).
@Suite("The trustedMarkdownHTML switch")
struct MarkdownTrustSettingTests {
    @Test("The switch must be true or false")
    func switchType() throws {
        let problems = try Fixture.problems([
            "site.json": #"{"title": "T", "tagline": "G", "trustedMarkdownHTML": "yes"}"#
        ])
        expectDiagnostic(
            problems, "site.json", 1, 55, "'trustedMarkdownHTML' must be true or false, found the string \"yes\"")
        let typo = try Fixture.problems(["site.json": #"{"title": "T", "tagline": "G", "trustedMarkdownHtml": true}"#])
        expectDiagnostic(
            typo, "site.json", 1, 32, "unknown key 'trustedMarkdownHtml'; did you mean 'trustedMarkdownHTML'?")
    }
}
