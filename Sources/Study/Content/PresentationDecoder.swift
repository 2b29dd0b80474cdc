import Formats
import ScrollSimulation

/// Reads a `presentation` object: layout, cell design and image side, each optional over a base.
package enum PresentationDecoder {
    /// The presentation a user dataset has when its descriptor names none.
    static func defaultPresentation(hasImages: Bool) -> Presentation {
        Presentation(layout: .table(.fixed(height: 64)), cellDesign: .plain, imageSide: hasImages ? 44 : 0)
    }

    /// `node` over `base`; nil after reporting when something in it is wrong.
    static func decode(_ node: JSONNode, base: Presentation, file: ContentFile, context: String = "presentation")
        -> Presentation?
    {
        guard
            let object = ObjectReader(
                node, in: file, context: context, expected: "an object with 'layout', 'cellDesign' and/or 'imageSide'")
        else { return nil }
        object.allowOnly(ContentKeys.presentation)
        let before = file.errorCount
        var result = base
        if let layout = object["layout"],
            let decoded = decodeLayout(layout, base: base.layout, file: file, context: object.label("layout"))
        {
            result.layout = decoded
        }
        if let design = object["cellDesign"],
            let decoded = decodeCellDesign(design, file: file, context: object.label("cellDesign"))
        {
            result.cellDesign = decoded
        }
        if let side = object.number("imageSide", in: 0...1_000, unit: "pt") { result.imageSide = side }
        return file.errorCount == before ? result : nil
    }

    private static func decodeLayout(_ node: JSONNode, base: LayoutSpec, file: ContentFile, context: String)
        -> LayoutSpec?
    {
        guard
            let object = ObjectReader(
                node, in: file, context: context,
                expected:
                    "an object such as {\"kind\": \"table\", \"rowHeight\": 64} or {\"kind\": \"grid\", \"columns\": {\"even\": 3}, \"spacing\": 10, \"aspect\": 1}"
            )
        else { return nil }
        guard let kind = object.choice("kind", ["table", "grid"], kind: "layout kind", required: true)?.0 else {
            object.allowOnly(ContentKeys.tableLayout + ContentKeys.gridLayout.filter { $0 != "kind" })
            return nil
        }
        if kind == "table" {
            object.allowOnly(ContentKeys.tableLayout)
            guard let height = object["rowHeight"] else {
                if case let .table(rows) = base { return .table(rows) }
                object.missing("rowHeight", "a number of points, or \"content\" for rows as tall as their text")
                return nil
            }
            if case let .string(s) = height.value {
                guard s == "content" else {
                    file.error(
                        "'\(object.label("rowHeight"))' must be a number of points or \"content\", found \(height.valueDescription)",
                        at: height.position)
                    return nil
                }
                return .table(.fromContent(TextMetrics()))
            }
            guard case .number = height.value else {
                file.error(
                    "'\(object.label("rowHeight"))' must be a number of points or \"content\", found \(height.valueDescription)",
                    at: height.position)
                return nil
            }
            return file.number(height, object.label("rowHeight"), in: 1...2_000, unit: "pt").map {
                .table(.fixed(height: $0))
            }
        }

        object.allowOnly(ContentKeys.gridLayout)
        var baseGrid: GridSpec? = nil
        if case let .grid(g) = base { baseGrid = g }
        let before = file.errorCount
        var columns = baseGrid?.columns
        if let node = object["columns"] {
            columns = decodeColumns(node, file: file, label: object.label("columns"))
        } else if columns == nil {
            object.missing("columns", "{\"even\": n}, \"sizeClass\" or {\"narrow\": n, \"wide\": n, \"threshold\": pt}")
        }
        let spacing = object.number("spacing", in: 0...200, unit: "pt") ?? baseGrid?.spacing ?? 10
        var aspect = baseGrid?.aspect
        var itemHeight = baseGrid?.fixedItemHeight ?? 0
        let givenAspect = object.number("aspect", in: 0.05...20)
        let givenHeight = object.number("itemHeight", in: 1...2_000, unit: "pt")
        if object.has("aspect"), object.has("itemHeight") {
            file.error(
                "'\(context)' gives both 'aspect' and 'itemHeight'; give one: the item height as a multiple of its width, or in points",
                at: node.position)
        } else if let givenAspect {
            aspect = givenAspect
        } else if let givenHeight {
            aspect = nil
            itemHeight = givenHeight
        } else if !object.has("aspect"), !object.has("itemHeight"), baseGrid == nil {
            object.missing("aspect", "the item height as a multiple of its width; or give 'itemHeight' in points")
        }
        guard file.errorCount == before, let columns else { return nil }
        return .grid(GridSpec(columns: columns, spacing: spacing, aspect: aspect, fixedItemHeight: itemHeight))
    }

    private static func decodeColumns(_ node: JSONNode, file: ContentFile, label: String) -> GridSpec.Columns? {
        let forms = "{\"even\": n}, \"sizeClass\" or {\"narrow\": n, \"wide\": n, \"threshold\": pt}"
        if case let .string(s) = node.value {
            if s == "sizeClass" { return .sizeClass }
            file.error("'\(label)' must be \(forms), found \(node.valueDescription)", at: node.position)
            return nil
        }
        guard let object = ObjectReader(node, in: file, context: label, expected: forms) else { return nil }
        if object.has("even") {
            object.allowOnly(ContentKeys.evenColumns)
            return object.integer("even", in: 1...12).map { .evenWithOuterSpacing($0) }
        }
        object.allowOnly(ContentKeys.adaptiveColumns)
        let narrow = object.integer("narrow", in: 1...12, required: true)
        let wide = object.integer("wide", in: 1...12, required: true)
        let threshold = object.number("threshold", in: 1...10_000, unit: "pt", required: true)
        guard let narrow, let wide, let threshold else { return nil }
        return .widthThreshold(narrow: narrow, wide: wide, threshold: threshold)
    }

    private static func decodeCellDesign(_ node: JSONNode, file: ContentFile, context: String) -> CellDesign? {
        let names = CellDesign.builtIn.map(\.id)
        if case let .string(s) = node.value {
            if let design = CellDesign.builtIn.first(where: { $0.id == s }) { return design }
            file.error(
                "'\(context)': " + unknownNameMessage(kind: "cell design", name: s, valid: names)
                    + " (or an object with id and layers, and optionally the other layer counts and the cell's anatomy)",
                at: node.position)
            return nil
        }
        guard
            let object = ObjectReader(
                node, in: file, context: context,
                expected:
                    "one of \(names.map { "\"\($0)\"" }.joined(separator: ", ")) or an object with id and layers, and optionally the other layer counts and the cell's anatomy"
            )
        else { return nil }
        object.allowOnly(ContentKeys.cellDesign)
        let before = file.errorCount
        let id = object.string("id", required: true)
        let layers = object.integer("layers", in: 1...100, required: true)
        let blended = object.integer("blendedLayers", in: 0...100) ?? 0
        let gradients = object.integer("gradientLayers", in: 0...100) ?? 0
        let passes = object.integer("offscreenPasses", in: 0...20) ?? 0
        let anatomy = decodeAnatomy(object, file: file, context: context)
        if let layers, blended + gradients > layers {
            file.error(
                "'\(context)' has \(blended) blended and \(gradients) gradient layers but only \(layers) layers; blendedLayers + gradientLayers must be at most layers",
                at: node.position)
        }
        guard file.errorCount == before, let id, let layers else { return nil }
        return CellDesign(
            id: id, layers: layers, blendedLayers: blended, gradientLayers: gradients, offscreenPasses: passes,
            anatomy: anatomy)
    }

    /// A cell described by its anatomy keys alone (a validation case's cell), or nil after
    /// reporting its problems.
    static func anatomy(_ node: JSONNode, file: ContentFile, context: String) -> CellAnatomy? {
        guard
            let object = ObjectReader(
                node, in: file, context: context,
                expected:
                    "an object of a cell's anatomy (labels, multilineLabels, imageViews, views, constraints, autoLayout, formattedValues, attributedLabels)"
            )
        else { return nil }
        object.allowOnly(ContentKeys.anatomy)
        let before = file.errorCount
        let a = decodeAnatomy(object, file: file, context: context)
        return file.errorCount == before ? a : nil
    }

    /// The anatomy keys of a cell design object; each one left out keeps the plain cell's value
    /// (`multilineLabel: true`, the older spelling, means one multi-line label).
    private static func decodeAnatomy(_ object: ObjectReader, file: ContentFile, context: String) -> CellAnatomy {
        let plain = CellDesign.plain.anatomy
        let legacyMultiline = object.bool("multilineLabel").map { $0 ? 1 : 0 }
        let autoLayout = object.bool("autoLayout") ?? true
        let labels = object.integer("labels", in: 0...200) ?? plain.labels
        let multiline = object.integer("multilineLabels", in: 0...200) ?? legacyMultiline ?? plain.multilineLabels
        let images = object.integer("imageViews", in: 0...200) ?? plain.imageViews
        let views = object.integer("views", in: 0...500) ?? plain.views
        var constraints = object.integer("constraints", in: 0...5_000)
        if !autoLayout, let n = constraints, n > 0, let node = object["constraints"] {
            file.error(
                "'\(context)' has \(n) constraints but 'autoLayout' is false; a cell laid out by hand has none (leave 'constraints' out)",
                at: node.position)
            constraints = 0
        }
        if constraints == nil, ["labels", "multilineLabels", "imageViews", "views"].allSatisfy({ object[$0] == nil }) {
            constraints = autoLayout ? plain.constraints : 0
        }
        return CellAnatomy(
            labels: labels, multilineLabels: multiline, imageViews: images, views: views, constraints: constraints,
            layout: autoLayout ? .autoLayout : .manual,
            formattedValues: object.integer("formattedValues", in: 0...200) ?? plain.formattedValues,
            attributedLabels: object.integer("attributedLabels", in: 0...200) ?? 0)
    }
}
