import Formats

/// A value a template is rendered against: the data model of the template engine.
///
/// Section truthiness follows mustache(5): `.null`, `.bool(false)` and an empty `.array` are falsy;
/// everything else (including `0`, `""` and an empty object) is truthy.
package enum MustacheValue: Sendable, Equatable {
    /// An explicit absence of a value; defined for strict mode, renders as nothing, falsy.
    case null
    /// A boolean; interpolates as `true` / `false`, `false` is falsy.
    case bool(Bool)
    /// An integer; interpolates in decimal.
    case int(Int)
    /// A floating-point number; integral values interpolate like integers (`85`), others in shortest form (`1.21`).
    case double(Double)
    /// A string; escaped by `{{x}}`, written as-is by `{{{x}}}` and `{{&x}}`.
    case string(String)
    /// A list; sections iterate it, an empty list is falsy.
    case array([MustacheValue])
    /// A hash of named values; sections push it on the context stack.
    case object([String: MustacheValue])
}

extension MustacheValue {
    /// Whether a section skips this value (and an inverted section renders).
    var isFalsy: Bool {
        switch self {
        case .null, .bool(false): return true
        case .array(let items): return items.isEmpty
        default: return false
        }
    }

    /// A short noun for messages ("a string", "a list", ...).
    var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .int, .double: return "a number"
        case .string: return "a string"
        case .array: return "a list"
        case .object: return "an object"
        }
    }

    /// The text a scalar interpolates as; `nil` for lists and objects.
    var scalarText: String? {
        switch self {
        case .null: return ""
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d): return MustacheValue.format(d)
        case .string(let s): return s
        case .array, .object: return nil
        }
    }

    /// Deterministic number formatting (`NumberFormat.shortest`): integral doubles print like
    /// integers, others in Swift's shortest round-tripping form.
    static func format(_ d: Double) -> String { NumberFormat.shortest(d) }
}

extension MustacheValue: ExpressibleByNilLiteral {
    /// `nil` becomes `.null`.
    package init(nilLiteral: ()) { self = .null }
}

extension MustacheValue: ExpressibleByBooleanLiteral {
    /// `true` / `false` become `.bool`.
    package init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension MustacheValue: ExpressibleByIntegerLiteral {
    /// Integer literals become `.int`.
    package init(integerLiteral value: Int) { self = .int(value) }
}

extension MustacheValue: ExpressibleByFloatLiteral {
    /// Floating-point literals become `.double`.
    package init(floatLiteral value: Double) { self = .double(value) }
}

extension MustacheValue: ExpressibleByStringLiteral, ExpressibleByStringInterpolation {
    /// String literals (also interpolated ones) become `.string`.
    package init(stringLiteral value: String) { self = .string(value) }
}

extension MustacheValue: ExpressibleByArrayLiteral {
    /// Array literals become `.array`.
    package init(arrayLiteral elements: MustacheValue...) { self = .array(elements) }
}

extension MustacheValue: ExpressibleByDictionaryLiteral {
    /// Dictionary literals become `.object`; a repeated key keeps its last value.
    package init(dictionaryLiteral elements: (String, MustacheValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
