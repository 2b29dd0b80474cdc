import Formats
import Foundation

extension Sensitivity {
    /// `scrollstudy sensitivity` as one call: loads `content`, analyses the study `studyID` on
    /// `jobs` threads and prints the report's lines.
    package static func run(study studyID: String, content folder: URL, jobs: Int, console: Console) -> Ending {
        let content: SiteContent
        do { content = try ContentLoader.load(from: folder) } catch {
            return console.contentFailed(error, in: folder.path, wroteNothing: false)
        }
        guard let study = content.studies.first(where: { $0.id == studyID }) else {
            console.fail(unknownNameMessage(kind: "study", name: studyID, valid: content.studies.map(\.id)))
            return .usage
        }
        let plan = RunPlanner.plan(content).filter { $0.studyID == study.id }
        let report = analyse(
            study: study, plan: plan, strategies: content.strategies, devices: content.devices, jobs: jobs)
        console.output(report.lines(latencyText: NumberFormat.latency).joined(separator: "\n"))
        return .success
    }
}
