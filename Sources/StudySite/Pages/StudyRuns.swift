import Results
import ScrollSimulation
import Study

/// Digests by reflection (`Fingerprint.digest(ofValue:)`) of the studies and sensitivity reports
/// that study pages' keys add, each made once per build for equal values: the copies of a study,
/// with their names blanked, share one.
final class StudyDigests: Sendable {
    let studies = TextMemo<Study> { Fingerprint.digest(ofValue: $0) }
    let reports = TextMemo<Sensitivity> { Fingerprint.digest(ofValue: $0) }

    /// What a study is filed under in a `TextMemo` (which compares the values filed under one name):
    /// what its copies share and other studies mostly do not, so that a lookup compares a few
    /// studies, not every one of a thousand-study sweep.
    static func name(_ s: Study) -> String {
        "\(s.dataset.utf8.count):\(s.dataset) " + s.strategies.map { "\($0.utf8.count):\($0)" }.joined() + " "
            + s.latenciesMs.map { String($0.bitPattern, radix: 16) }.joined(separator: ",")
    }

    /// Likewise for a sensitivity report: its size and first answer.
    static func name(_ r: Sensitivity) -> String {
        "\(r.variations) \(r.runsPerVariation) \(r.conclusions.count) " + (r.conclusions.first?.answer ?? "")
    }
}

/// One study as the summary pages see it: the study, the dataset, devices and strategies it
/// names (those that exist, in its order), its planned runs (in plan order) and the results index
/// their records are read from.
struct StudyRuns: Sendable {
    let study: Study
    let dataset: Dataset?
    /// The study's devices that exist, in its order.
    let devices: [DeviceProfile]
    /// The study's strategies that exist, in its order.
    let strategies: [Strategy]
    /// Its runs, in plan order.
    let runs: [PlannedRun]
    let results: ResultsIndex
    /// Its answers, computed once in the judge stage (`Outcome.studyAnswers`) from the inputs above;
    /// every page and line that shows them reads them here.
    let answers: StudyAnswers
    /// How its answers hold up when each device constant is halved and doubled, when the study asks.
    var sensitivity: Sensitivity? = nil
    /// `Fingerprint.digest(of: dataset)`, from the plan stage (`PlanFingerprints.datasetDigests`); nil without a dataset.
    let datasetDigest: String?
    /// Where another study answers one of this study's settings differently (`Disagreement`), each
    /// with the other study's id and title.
    var disagreements: [(disagreement: Disagreement, otherID: String, otherTitle: String)] = []
    /// The memo of the digests `addInputs` takes (the site builder's, shared by every study).
    var digests = StudyDigests()

    /// What the study's pages read, added to `key` (`PageJob.key`): the study, its dataset (by
    /// digest), devices and strategies by their canonical text, each run's names and its record's
    /// fingerprint (a record is a function of its fingerprint, names aside), and the sensitivity
    /// report. The answers are not added: they are a function of these. `PageKeyTests` fails when a stored property is added here without a word here.
    /// Devices and strategies are added by their digests from `parts`, made once per build.
    func addInputs(to key: inout PageKey, parts: PartTexts) {
        // The study by the digest of its value with its names blanked (the same for its copies,
        // made once), then the names.
        var unnamed = study
        (unnamed.id, unnamed.title, unnamed.order, unnamed.sourceFile) = ("", "", 0, "")
        key.add(digests.studies.text(unnamed, name: StudyDigests.name(unnamed)))
        for name in [study.id, study.title, String(study.order), study.sourceFile] { key.add(name) }
        key.add(dataset == nil ? "no dataset" : datasetDigest ?? "no digest")
        key.add("devices \(devices.count)")
        for device in devices { key.add(parts.digest(device)) }
        key.add("strategies \(strategies.count)")
        for strategy in strategies { key.add(parts.digest(strategy)) }
        for run in runs {
            key.add(run: run, results: results)
        }
        if let sensitivity {
            // Likewise the report, by its value with the study's id blanked, then the id.
            var unnamed = sensitivity
            unnamed.studyID = ""
            key.add(digests.reports.text(unnamed, name: StudyDigests.name(unnamed)))
            key.add(sensitivity.studyID)
        } else {
            key.add("no sensitivity")
        }
        key.add("disagreements \(disagreements.count)")
        for d in disagreements { for part in d.disagreement.keyParts + [d.otherID, d.otherTitle] { key.add(part) } }
    }

    /// Its runs with their results, for the page at `page` (which a missing record fails).
    func resolved(for page: String) throws(SiteError) -> [(run: PlannedRun, result: RunResult)] {
        try PageParts.results(of: runs, in: results, page: page)
    }

    /// The study's answers (`answers`), for the page at `page`, which a missing record fails as it
    /// would fail a page that reads the records.
    func answers(for page: String) throws(SiteError) -> StudyAnswers {
        for run in runs where results[run.id] == nil { throw PageParts.missingResult(run.id, page: page) }
        return answers
    }

    /// "glitchy-300 · iPhone, 60 Hz · gesture aggressive".
    var setupLine: String {
        let names = devices.map(\.name).joined(separator: " and ")
        let gestures = study.gestures.map(\.id).joined(separator: ", ")
        return "\(dataset?.name ?? study.dataset) · \(names) · gesture \(gestures)"
    }
}
