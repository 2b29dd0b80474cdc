import Results
import Study

@testable import StudySite

// Kept beside the tests rather than in TestSupport: it calls SiteBuilder's internal initializer,
// which only a `@testable import` reaches, and TestSupport is built in release builds too.
extension SiteBuilder {
    /// A builder as the build's stages make it, without a baseline or sensitivity reports: the
    /// plan's dataset digests and the answers computed here.
    init(content: SiteContent, plan: [PlannedRun], results: ResultsIndex, templates: TemplateSet) {
        let fingerprints = PlanFingerprints(plan, datasets: content.datasets, jobs: 1)
        let outcome = Outcome(content: content, plan: plan, fingerprints: fingerprints, results: results, baseline: nil)
        self.init(
            content: content, plan: plan, results: results, templates: templates, answers: outcome.studyAnswers,
            datasetDigests: fingerprints.datasetDigests)
    }
}
