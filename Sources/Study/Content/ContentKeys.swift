/// Every key a content file may hold, by the object that holds it: the lists the decoders
/// accept (`ObjectReader.allowOnly`) and that `Content/README.md` documents, in one table.
/// `ContentKeysTests` fails when a key of this table is not in the README.
package enum ContentKeys {
    /// `site.json`.
    static let site = ["title", "tagline", "defaultLatenciesMs", "tour", "trustedMarkdownHTML", "budgets", "defaults"]
    /// `site.json`'s `defaults`.
    static let siteDefaults = ["seeds", "jitter"]
    /// A dataset's or study's `presentation`.
    static let presentation = ["layout", "cellDesign", "imageSide"]
    /// A table layout.
    static let tableLayout = ["kind", "rowHeight"]
    /// A grid layout.
    static let gridLayout = ["kind", "columns", "spacing", "aspect", "itemHeight"]
    /// A grid's `columns` as an even count.
    static let evenColumns = ["even"]
    /// A grid's `columns` that adapt to the width.
    static let adaptiveColumns = ["narrow", "wide", "threshold", "even"]
    /// A presentation's `cellDesign`.
    static let cellDesign =
        ["id", "layers", "blendedLayers", "gradientLayers", "offscreenPasses"] + anatomy + ["multilineLabel"]
    /// A cell's anatomy (in a cell design, or a validation case's `cell`).
    static let anatomy = [
        "labels", "multilineLabels", "imageViews", "views", "constraints", "autoLayout", "formattedValues",
        "attributedLabels",
    ]
    /// One step of `site.json`'s `tour`.
    static let tourStep = ["id", "title", "study", "strategy", "latencyMs", "chart", "text"]
    /// `validation.json`.
    static let validation = ["cases", "cannotPredict"]
    /// One of `validation.json`'s `cannotPredict`.
    static let validationGap = ["what", "why", "source"]
    /// A validation case's or gap's `source`.
    static let validationSource = ["title", "url"]

    /// Every object and its keys, in the README's order of files.
    package static var all: [(object: String, keys: [String])] {
        [
            ("site.json", site), ("site.json defaults", siteDefaults), ("study", StudyDecoder.allowedKeys),
            ("budget", BudgetDecoder.allowedKeys),
            ("strategy", StrategyDecoder.allowedKeys), ("strategy parameters", StrategyDecoder.parameterKeys),
            ("dataset file", DatasetDecoder.fileKeys), ("built-in dataset", DatasetDecoder.builtInKeys),
            ("dataset fields", DatasetDecoder.fieldKeys),
            ("presentation", presentation), ("table layout", tableLayout), ("grid layout", gridLayout),
            ("even columns", evenColumns),
            ("adaptive columns", adaptiveColumns), ("cell design", cellDesign),
            ("device", DeviceDecoder.settingKeys + ["calibration"]),
            ("measured entry", MeasuredDecoder.allowedKeys), ("tour step", tourStep), ("validation.json", validation),
            ("validation gap", validationGap), ("validation source", validationSource),
            ("validation case", ValidationDecoder.caseKeys),
            ("validation run", ValidationDecoder.runKeys), ("validation constants", ValidationDecoder.constantKeys),
            ("validation cell", ValidationDecoder.cellKeys), ("cell anatomy", anatomy),
        ]
    }
}
