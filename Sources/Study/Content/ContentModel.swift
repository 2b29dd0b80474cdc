import Formats
import ScrollSimulation

/// Everything `Content/` describes, loaded and validated: the input of the site generator.
public struct SiteContent: Sendable {
    /// Site-wide settings (`site.json`).
    package var site: SiteSettings
    /// Datasets by id, sorted by id (built-in ones the studies use plus the user's).
    package var datasets: [Dataset]
    /// Device profiles, sorted by id (the built-in two plus the user's).
    package var devices: [DeviceProfile]
    /// Strategies, sorted by id (the built-in presets plus the user's).
    package var strategies: [Strategy]
    /// Studies, sorted by `order` then id.
    package var studies: [Study]
    /// Markdown documents by path relative to `Content/` (e.g. `techniques/t3.md`), sorted by path.
    package var documents: [ContentDocument]
    /// Harmless problems worth showing (printed as `warning:` lines).
    package var warnings: [ContentDiagnostic]
    /// Files under `Content/static/`, copied into the site as they are (`CNAME`, `.nojekyll`, a
    /// favicon), sorted by path.
    package var staticFiles: [StaticFile] = []
    /// The accuracy page's validation cases (`validation.json`; empty without the file).
    package var validation = ValidationSet()

    /// Content from its parts.
    package init(
        site: SiteSettings, datasets: [Dataset], devices: [DeviceProfile], strategies: [Strategy],
        studies: [Study], documents: [ContentDocument] = [], warnings: [ContentDiagnostic] = []
    ) {
        self.site = site
        self.datasets = datasets
        self.devices = devices
        self.strategies = strategies
        self.studies = studies
        self.documents = documents
        self.warnings = warnings
    }

    /// A dataset by id.
    package func dataset(_ id: String) -> Dataset? { datasets.first { $0.id == id } }
    /// A device by id.
    /// The device with id `id`: one of the content's, or a phone of the catalog (`PhoneCatalog`).
    package func device(_ id: String) -> DeviceProfile? {
        devices.first { $0.id == id } ?? DeviceProfile.phones.first { $0.id == id }
    }
    /// A strategy by id.
    package func strategy(_ id: String) -> Strategy? { strategies.first { $0.id == id } }
}

/// `site.json`.
package struct SiteSettings: Sendable, Equatable {
    /// The site's title.
    package var title: String
    /// One paragraph under the title on the index.
    package var tagline: String
    /// Latency settings a study uses when it names none, ms.
    package var defaultLatenciesMs: [Double]
    /// Budgets for the runs of every study (`budgets` in site.json).
    package var budgets: [Budget] = []
    /// Seeds and latency spread of every study that names none (`defaults` in site.json).
    package var studyDefaults = StudyDefaults()
    /// The guided tour on the index, in order (none when empty).
    package var tour: [TourStep]
    /// Whether the Markdown documents come from trusted authors: raw HTML is then copied into the
    /// pages and link destinations are not restricted. Off by default: raw HTML is shown as text
    /// and only relative, http, https and mailto destinations are kept.
    package var trustedMarkdownHTML: Bool

    /// Settings.
    package init(
        title: String, tagline: String, defaultLatenciesMs: [Double] = [100, 1_000], tour: [TourStep] = [],
        trustedMarkdownHTML: Bool = false
    ) {
        self.title = title
        self.tagline = tagline
        self.defaultLatenciesMs = defaultLatenciesMs
        self.tour = tour
        self.trustedMarkdownHTML = trustedMarkdownHTML
    }
}

/// What a study runs when it does not say: `defaults` in site.json.
package struct StudyDefaults: Sendable, Equatable {
    /// The seeds every configuration runs with (5 by default, so every number has a spread).
    package var seeds: [UInt64]
    /// The log-normal sigma of each request's latency around the setting (0: fixed). The default,
    /// 0.5, is an estimate of how request latency spreads on mobile networks (Content/README.md).
    package var jitter: Double

    /// Defaults: seeds 1 to 5, sigma 0.5.
    package init(seeds: [UInt64] = [1, 2, 3, 4, 5], jitter: Double = StudyDefaults.standardJitter) {
        self.seeds = seeds
        self.jitter = jitter
    }

    /// The sigma site.json gives when it names none.
    package static let standardJitter = 0.5
}

/// One study: a dataset on devices under gestures, strategies × latency settings × seeds.
package struct Study: Sendable, Equatable {
    /// What the study's runs compare.
    package enum Kind: String, Sendable, Equatable {
        /// Strategies side by side at a few latency settings.
        case comparison
        /// Many latency settings, drawn as lines of a metric against latency.
        case sweep
        /// Which of some candidate techniques a base strategy needs: every combination of them
        /// over the base (`search`), its smallest sets that meet the bar, each technique's effect.
        case techniqueSearch = "technique-search"
    }

    /// Identifier (the file name without `.json`); also the page's file name.
    package var id: String
    /// Title.
    package var title: String
    /// The question it asks, in a sentence or two (plain text).
    package var question: String
    /// Comparison or sweep.
    package var kind: Kind
    /// Dataset id.
    package var dataset: String
    /// Device ids (at least one).
    package var devices: [String]
    /// Gestures (presets or inline forms, resolved).
    package var gestures: [Gesture]
    /// Latency settings, ms.
    package var latenciesMs: [Double]
    /// Strategy ids, in the order the study shows them.
    package var strategies: [String]
    /// Seeds (each combination runs once per seed).
    package var seeds: [UInt64]
    /// Log-normal sigma of each request's latency around the setting; 0 for a fixed latency.
    package var jitter: Double = 0
    /// Overrides the dataset's layout and cell design.
    package var presentation: Presentation?
    /// Position on the index (lower first).
    package var order: Int
    /// Techniques this study isolates (used to link technique pages to it).
    package var isolates: [TechniqueID]
    /// The file it came from, relative to `Content/`.
    package var sourceFile: String
    /// Budgets on its runs' metrics (`budgets` in the study file).
    package var budgets: [Budget] = []
    /// Whether its page says how its answers hold up when each device constant and each of the
    /// model's structural assumptions its runs use is halved and doubled (`"sensitivity": true`;
    /// costs reruns of the runs each variation can change, cached between generations).
    package var sensitivity = false
    /// The metrics its question is about, by the metric table's names (`asks` in the study file):
    /// its answers rank the strategies that meet the bar on these first, in this order, then on
    /// the rest of the severity order (`AnswerRule.ranking(asks:)`). Empty: the severity order.
    package var asks: [String] = []
    /// Measured runs shown beside its strategies' simulated runs (`measured` in the study file).
    package var measured: [MeasuredEntry] = []
    /// A technique search's base, candidates and combinations (`strategies` then lists the
    /// combinations' strategies, in the same order); nil for other kinds.
    package var search: TechniqueSearch? = nil

    /// A study.
    package init(
        id: String, title: String, question: String, kind: Kind = .comparison, dataset: String, devices: [String],
        gestures: [Gesture], latenciesMs: [Double], strategies: [String], seeds: [UInt64] = [1],
        presentation: Presentation? = nil, order: Int = 100, isolates: [TechniqueID] = [], sourceFile: String
    ) {
        self.id = id
        self.title = title
        self.question = question
        self.kind = kind
        self.dataset = dataset
        self.devices = devices
        self.gestures = gestures
        self.latenciesMs = latenciesMs
        self.strategies = strategies
        self.seeds = seeds
        self.presentation = presentation
        self.order = order
        self.isolates = isolates
        self.sourceFile = sourceFile
    }
}

/// A Markdown file from `Content/`, not yet rendered.
package struct ContentDocument: Sendable, Equatable {
    /// Path relative to `Content/`, with `/` separators.
    package var path: String
    /// The file's text.
    package var text: String

    /// A document.
    package init(path: String, text: String) {
        self.path = path
        self.text = text
    }
}

/// A problem in `Content/`, located as precisely as the file allows.
package struct ContentDiagnostic: Error, Sendable, Equatable, CustomStringConvertible {
    /// Error or warning.
    package enum Severity: String, Sendable { case error, warning }

    /// Path relative to the content folder (e.g. `studies/glitchy.json`).
    package var file: String
    /// 1-based line, or nil when the problem is about the whole file.
    package var line: Int?
    /// 1-based column in characters, or nil.
    package var column: Int?
    /// What is wrong, quoting the bad value and saying what is valid.
    package var message: String
    /// Error or warning.
    package var severity: Severity
    /// How many problems it stands for: 1, or for a line that counts the problems not listed
    /// one by one ("… and 990 more row problems"), that number.
    package var count: Int

    /// A diagnostic.
    package init(
        file: String, line: Int? = nil, column: Int? = nil, message: String, severity: Severity = .error, count: Int = 1
    ) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.severity = severity
        self.count = count
    }

    /// `file:line:column: error: message`, as compilers print it.
    package var description: String {
        Diagnostic(
            file: file, line: line, column: column, severity: severity == .error ? .error : .warning, message: message
        ).description
    }
}

/// Content that could not be loaded: every problem found, in file order.
public struct ContentError: Error, Sendable, CustomStringConvertible {
    /// The problems.
    package var diagnostics: [ContentDiagnostic]

    /// An error with its problems.
    package init(_ diagnostics: [ContentDiagnostic]) { self.diagnostics = diagnostics }

    /// One line per problem.
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }

    /// How many of the problems are errors (the rest are warnings), counting those that a
    /// "… and N more" line stands for.
    package var errorCount: Int { diagnostics.filter { $0.severity == .error }.reduce(0) { $0 + $1.count } }

    /// The closing line: "1 problem in Content", "3 problems in Content", or, when some were only
    /// counted, "1000 problems in Content (10 listed above, 990 more counted but not listed)".
    public func summary(in folder: String) -> String {
        let errors = diagnostics.filter { $0.severity == .error }
        let total = errorCount
        let counted = errors.filter { $0.count != 1 }
        var text = "\(total) problem\(total == 1 ? "" : "s") in \(folder)"
        if !counted.isEmpty {
            let listed = errors.count - counted.count
            text += " (\(listed) listed above, \(total - listed) more counted but not listed)"
        }
        return text
    }
}

/// A file of `Content/static/`, which the site holds at the same path below its root.
package struct StaticFile: Sendable, Equatable {
    /// The path below `static/` (and so below the site's root), `/`-separated.
    package let path: String
    package let bytes: [UInt8]

    package init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
    }

    /// Extensions a browser would run or render as a document, with script: the site has no
    /// JavaScript and nothing from content may become script, so these are refused.
    package static let activeExtensions = [
        "htm", "html", "js", "mjs", "cjs", "shtml", "svg", "svgz", "swf", "wasm", "xht", "xhtml", "xml", "xsl", "xslt",
    ]
    /// Names skipped as the debris of file managers and version control, not content.
    package static let ignoredNames: Set<String> = [".DS_Store", "Thumbs.db", ".git", ".gitkeep", "desktop.ini"]
}
