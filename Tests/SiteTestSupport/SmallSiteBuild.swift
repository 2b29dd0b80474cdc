import Foundation
import Study
import StudySite
import TestSupport

extension SmallSite {
    /// The site of `content` (SmallSite's own by default), built with the package's templates.
    package static func build(jobs: Int = 1, content: SiteContent = content()) throws -> [OutputFile] {
        let templates = try TemplateSet.load(from: packageRoot.appendingPathComponent("Templates"))
        return try SiteGenerator.build(content: content, templates: templates, jobs: jobs).files
    }
}
