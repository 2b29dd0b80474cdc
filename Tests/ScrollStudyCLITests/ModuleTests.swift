import ScrollStudyCLI
import Testing

@Suite("Command-line names")
struct CatalogTests {
    @Test func unknownStrategyListsClosestFirst() {
        #expect(throws: UsageError.self) { try Catalog.strategy("glitchy-synk") }
        do { _ = try Catalog.strategy("glitchy-synk") } catch {
            #expect(error.description.contains("did you mean 'glitchy-sync'?"))
            #expect(error.description.contains("Valid strategy names: glitchy-sync,"))
        }
    }
}
