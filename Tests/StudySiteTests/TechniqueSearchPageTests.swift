import ScrollSimulation
import SiteTestSupport
import Study
import StudySite
import TestSupport
import Testing

/// A technique search study's page (split from StudyTests' TechniqueSearchTests, which holds the search).
@Suite("Technique search: the study page")
struct SiteTechniqueSearchTests {
    static let base = Strategy.capitalOneArticle  // T6, T7, T8, T9

    @Test(
        "A search study's page ranks the techniques, names the smallest set and links technique and combination pages")
    func page() throws {
        let study: Study = {
            var s = Study(
                id: "search", title: "Search", question: "Which?", kind: .techniqueSearch, dataset: "users-1000",
                devices: ["iphone-60hz"],
                gestures: [.fling], latenciesMs: [100], strategies: [], seeds: [1], sourceFile: "studies/search.json")
            let expanded = TechniqueSearch.expand(base: Self.base, candidates: [.t10, .t13])
            s.search = expanded.search
            s.strategies = expanded.search.combinations.map(\.strategyID)
            return s
        }()
        let derived = TechniqueSearch.expand(base: Self.base, candidates: [.t10, .t13]).strategies.dropFirst()
        let content = SiteContent(
            site: SiteSettings(title: "T", tagline: "T"), datasets: [.users1000], devices: DeviceProfile.builtIn,
            strategies: (Strategy.presets + derived).sorted { $0.id < $1.id }, studies: [study])
        let files = try SmallSite.build(jobs: 2, content: content)
        let page = String(decoding: try #require(files.first { $0.path == "studies/search.html" }).bytes, as: UTF8.self)
        #expect(page.contains("Which techniques it needs"))
        #expect(page.contains("Exhaustive search: every one of the 4 combinations of the 2 candidates"))
        #expect(page.contains("href=\"../techniques/t10.html\"") && page.contains("href=\"../techniques/t13.html\""))
        #expect(page.contains("added to the base:") && page.contains("left out of the best:"))
        #expect(files.contains { $0.path == "strategies/capitalone-article-with-t10-t13.html" })
        #expect(files.contains { $0.path == "runs/search--capitalone-article-with-t10-t13--100ms.html" })
    }

    @Test("A search where no combination meets the bar and the closest tie names the tie, not one of them")
    func closestTie() throws {
        // At 5 s latency no combination keeps placeholders under the bar; T13 changes nothing without
        // prefetching and T17 only the render server, so the closest ties.
        let candidates: [TechniqueID] = [.t13, .t17]
        let study: Study = {
            var s = Study(
                id: "search", title: "Search", question: "Which?", kind: .techniqueSearch, dataset: "users-1000",
                devices: ["iphone-60hz"],
                gestures: [.fling], latenciesMs: [5_000], strategies: [], seeds: [1], sourceFile: "studies/search.json")
            let expanded = TechniqueSearch.expand(base: Self.base, candidates: candidates)
            s.search = expanded.search
            s.strategies = expanded.search.combinations.map(\.strategyID)
            return s
        }()
        let derived = TechniqueSearch.expand(base: Self.base, candidates: candidates).strategies.dropFirst()
        let content = SiteContent(
            site: SiteSettings(title: "T", tagline: "T"), datasets: [.users1000], devices: DeviceProfile.builtIn,
            strategies: (Strategy.presets + derived).sorted { $0.id < $1.id }, studies: [study])
        let files = try SmallSite.build(jobs: 2, content: content)
        let page = String(decoding: try #require(files.first { $0.path == "studies/search.html" }).bytes, as: UTF8.self)
        #expect(page.contains("No combination meets the bar on every seed."))
        if page.contains("tie as the closest:") {
            #expect(page.contains("finds no single closest combination"))
            #expect(!page.contains("(none meets the bar, so the closest) is"))
        } else {
            Issue.record("expected a tie for the closest in this search")
        }
    }
}
