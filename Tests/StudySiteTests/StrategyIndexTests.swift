import Foundation
import Results
import ScrollSimulation
import Study
import TestSupport
import Testing

@testable import StudySite

/// The strategies index lists the strategies the content names flatly and each technique search's
/// combinations under its study.
@Suite("Strategies index groups technique-search combinations")
struct StrategyIndexTests {
    @Test(
        "Each strategy in use is listed once; a search's combinations only under its study, its base in the flat list")
    func grouped() throws {
        let content = try ContentLoader.load(from: SmallSite.packageRoot.appendingPathComponent("Content"))
        let templates = try TemplateSet.load(from: SmallSite.packageRoot.appendingPathComponent("Templates"))
        let used = Set(content.studies.flatMap(\.strategies))
        let strategies = content.strategies.filter { used.contains($0.id) }
        let pages = StrategyPages(
            strategies: strategies, studies: content.studies, runs: [], results: ResultsIndex(),
            documents: Documents(documents: content.documents, trustedHTML: false),
            renderer: PageRenderer(templates: templates, siteTitle: content.site.title))
        let html = String(decoding: try pages.jobs()[0].render().bytes, as: UTF8.self)
        let searches = content.studies.filter { $0.search != nil }
        #expect(searches.count >= 2, "the default content has the two technique searches")
        let firstHeading = try #require(html.range(of: "<h2 id=\"search-"))
        let flat = String(html[..<firstHeading.lowerBound])
        for strategy in strategies {
            let link = "href=\"\(strategy.id).html\""
            #expect(html.components(separatedBy: link).count == 2, "\(strategy.id) listed once")
        }
        for study in searches {
            let search = try #require(study.search)
            #expect(flat.contains("href=\"\(search.base).html\""), "the base \(search.base) stays in the flat list")
            let heading = try #require(html.range(of: "<h2 id=\"search-\(study.id)\">"), "a heading for \(study.id)")
            let section = String(html[heading.upperBound...]).components(separatedBy: "<h2 ")[0]
            #expect(section.contains("href=\"../studies/\(study.id).html\""), "the heading links the study")
            for combination in search.combinations where combination.strategyID != search.base {
                #expect(
                    !flat.contains("href=\"\(combination.strategyID).html\""),
                    "\(combination.strategyID) not in the flat list")
                #expect(
                    section.contains("href=\"\(combination.strategyID).html\""),
                    "\(combination.strategyID) under \(study.id)")
            }
        }
    }
}
