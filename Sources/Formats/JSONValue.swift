/// A JSON value written deterministically: object keys sorted, numbers locale-free.
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    /// A number written with at most 6 decimals (`jsonNumber`): published summaries.
    case double(Double)
    /// A number written exactly, as the shortest text that reads back as the same double: records
    /// that are read back and must give the same pages.
    case exact(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Compact or pretty (two-space indent) text with sorted keys.
    package func serialized(pretty: Bool = true) -> String {
        serialized(pretty: pretty, inlineScalarArrays: false)
    }

    /// With `inlineScalarArrays`, a pretty text writes each array of scalars (no array or object
    /// inside) on one line without spaces: a series of rows of numbers stays one row a line.
    package func serialized(pretty: Bool, inlineScalarArrays: Bool) -> String {
        var out = ""
        write(into: &out, indent: pretty ? 0 : -1, inline: inlineScalarArrays)
        return out
    }

    /// Whether this is a scalar: no array or object.
    private var isScalar: Bool {
        switch self {
        case .array, .object: return false
        default: return true
        }
    }

    private func write(into out: inout String, indent: Int, inline: Bool = false) {
        if inline, indent >= 0, case let .array(items) = self, items.allSatisfy(\.isScalar) {
            return write(into: &out, indent: -1)
        }
        let pretty = indent >= 0
        func newline(_ level: Int) { if pretty { out += "\n" + String(repeating: "  ", count: level) } }
        switch self {
        case .null: out += "null"
        case let .bool(b): out += b ? "true" : "false"
        case let .int(i): out += String(i)
        case let .double(d): out += d.isFinite ? jsonNumber(d) : "null"
        case let .exact(d): out += d.isFinite ? (d == 0 ? "0" : d.description) : "null"
        case let .string(s): out += jsonQuoted(s)
        case let .array(items):
            if items.isEmpty {
                out += "[]"
                return
            }
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                newline(indent + 1)
                item.write(into: &out, indent: pretty ? indent + 1 : -1, inline: inline)
            }
            newline(indent)
            out += "]"
        case let .object(fields):
            if fields.isEmpty {
                out += "{}"
                return
            }
            out += "{"
            for (i, key) in fields.keys.sorted().enumerated() {
                if i > 0 { out += "," }
                newline(indent + 1)
                out += jsonQuoted(key) + (pretty ? ": " : ":")
                fields[key]!.write(into: &out, indent: pretty ? indent + 1 : -1, inline: inline)
            }
            newline(indent)
            out += "}"
        }
    }
}

/// A double as JSON: integral values without a fraction, others with up to 6 decimals.
func jsonNumber(_ d: Double) -> String {
    if d == d.snapped(), d.magnitude < 1e15 { return String(Int64(d)) }
    return NumberFormat.decimal(d, maxDecimals: 6)
}

/// JSON string literal.
func jsonQuoted(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case "<": out += "\\u003c"  // safe to embed in HTML
        default:
            if scalar.value < 0x20 {
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out + "\""
}
