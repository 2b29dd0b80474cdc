import TestSupport
import Testing

@testable import StudySite

/// Every page path is spelled by `SitePaths`; the site's own link forms in Markdown lead to the
/// pages the site writes.
@Suite("Site paths: link forms and the way back")
struct SitePathLinkTests {
    @Test("The documented link forms lead to the pages the generators write, from the root and from a folder")
    func linkForms() {
        // A study id may hold "--" (ids are free text up to the file name); its page keeps it.
        #expect(Documents.rewrite("study:a--b", root: "../") == "../" + SitePaths.study("a--b"))
        #expect(Documents.rewrite("study:a--b#answers", root: "") == "studies/a--b.html#answers")
        // A run id of a study with several seeds ends in --s<seed>; its page is the configuration's.
        #expect(
            Documents.rewrite("run:glitchy-table--glitchy-sync--100ms--s3", root: "../")
                == "../runs/glitchy-table--glitchy-sync--100ms.html")
        #expect(
            Documents.rewrite("run:glitchy-table--glitchy-sync--100ms", root: "")
                == "runs/glitchy-table--glitchy-sync--100ms.html")
        // A configuration whose last part merely starts with "s" keeps it.
        #expect(SitePaths.configuration(ofRun: "study--strategy--100ms--sweep") == "study--strategy--100ms--sweep")
        #expect(SitePaths.configuration(ofRun: "study--strategy--100ms--s") == "study--strategy--100ms--s")
        #expect(Documents.rewrite("strategy:wwdc21", root: "../") == "../" + SitePaths.strategy("wwdc21"))
        #expect(Documents.rewrite("technique:T3", root: "") == "techniques/t3.html")
        #expect(Documents.rewrite("model:#devices", root: "../") == "../model.html#devices")
        #expect(Documents.rewrite("https://example.org/x", root: "../") == "https://example.org/x")
    }

    @Test("The way back to the root follows the page's folder depth")
    func roots() {
        #expect(SitePaths.root(of: SitePaths.index) == "")
        #expect(SitePaths.root(of: SitePaths.study("x")) == "../")
        #expect(SitePaths.root(of: "a/b/c.html") == "../../")
        #expect(SitePaths.fromFolder(SitePaths.verdicts) == "../verdicts.html")
    }

    /// The site is made in StudySite; the other targets name files of their own folders (Content/'s
    /// datasets/, a results folder's runs/), and `Results` names the summary files it writes.
    @Test("No page path or way back to the root is spelled outside SitePaths in StudySite")
    func spelledOnce() throws {
        // A "../" prefix, or a root-relative page of the site written as a literal; Content/'s
        // Markdown documents ("strategies/<id>.md") are not pages.
        let found = try SourceLines.matching(
            [
                #""\.\./|"(studies|runs|strategies|techniques|datasets|metrics|measured)/|"(index|checks|verdicts|model|accuracy)\.html"#
            ],
            in: "Sources/StudySite", extension: "swift", skipping: ["Build/SitePaths.swift"],
            excluded: { $0.contains(".md\"") })
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }
}

@Suite("Site paths")
struct SitePathsTests {
    @Test("A sibling link is the file name within the folder; a root page's path is its own file name")
    func sibling() {
        #expect(SitePaths.sibling(SitePaths.strategy("mine")) == "mine.html")
        #expect(SitePaths.sibling(SitePaths.metric(slug: "hitchtimeratio", page: 2)) == "hitchtimeratio-2.html")
        // A path without a folder (the index's continuations, checks.html) has no slash to cut at.
        #expect(SitePaths.sibling(SitePaths.answers(page: 2)) == "answers-2.html")
        #expect(SitePaths.sibling(SitePaths.checks) == "checks.html")
    }
}
