import Foundation
import ScrollStudyCLI
import SiteTestSupport

extension Project {
    /// `scrollstudy generate` of the project into `output` (a folder name in `dir`), through the
    /// command's arguments (`GenerateCommand.run`): its exit code, the lines it printed (each ending
    /// in a newline) and its status lines (joined by newlines). A usage error is thrown.
    static func generateCommand(_ dir: URL, output: String = "Output", _ extra: [String] = []) throws -> (
        code: Int32, output: String, status: String
    ) {
        let out = Lines(), status = Lines()
        let code = try GenerateCommand.run(
            [
                "--content", dir.appendingPathComponent("Content").path,
                "--templates", dir.appendingPathComponent("Templates").path,
                "--output", dir.appendingPathComponent(output).path, "--jobs", "2",
            ] + extra,
            output: { out.add($0) }, status: { status.add($0) })
        return (code, out.all.map { $0 + "\n" }.joined(), status.text)
    }
}
