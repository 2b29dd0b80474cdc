/// The elements, attributes and fixed values a site writes.
struct HTMLVocabulary {
    var elements = Set<String>()
    var attributes = Set<String>()
    /// `<meta>` and `<link>` tags as written, attribute by attribute.
    var headTags = Set<String>()

    mutating func add(_ scan: HTMLScan) {
        for tag in scan.tags {
            elements.insert(tag.name)
            for (name, _) in tag.attributes { attributes.insert(name) }
            if tag.name == "meta" || tag.name == "link" || tag.name == "base" { headTags.insert(tag.description) }
        }
    }

    static let urlAttributes: Set<String> = [
        "href", "src", "xlink:href", "action", "formaction", "poster", "srcset", "data", "background", "cite",
    ]

    /// What `scan` holds beyond this vocabulary.
    func foreign(in scan: HTMLScan) -> [String] {
        var out: [String] = []
        for tag in scan.tags {
            if !elements.contains(tag.name) { out.append("element <\(tag.name)> the site does not write") }
            if ["script", "iframe", "object", "embed", "base", "form", "frame"].contains(tag.name) {
                out.append("active element <\(tag.name)>")
            }
            if (tag.name == "meta" || tag.name == "link") && !headTags.contains(tag.description) {
                out.append("foreign \(tag.description)")
            }
            for (name, value) in tag.attributes {
                if !attributes.contains(name) {
                    out.append("attribute \(name) on <\(tag.name)> the site does not write")
                }
                if name.hasPrefix("on") { out.append("event handler \(name) on <\(tag.name)>") }
                if name == "style"
                    && ["url(", "expression", "javascript"].contains(where: { value.lowercased().contains($0) })
                {
                    out.append("style attribute \(value)")
                }
                if Self.urlAttributes.contains(name), let scheme = Self.scheme(of: value),
                    !["http", "https", "mailto"].contains(scheme)
                {
                    out.append("\(name)=\"\(value.prefix(60))\" with scheme \(scheme):")
                }
            }
        }
        return out
    }

    /// The scheme of a URL as a browser reads it (lowercased), or nil for a relative URL.
    static func scheme(of value: String) -> String? {
        let decoded = HTMLScan.decodeReferences(value)
        var scheme = ""
        var started = false
        for scalar in decoded.unicodeScalars {
            if !started && scalar.value <= 0x20 { continue }
            started = true
            if scalar == "\t" || scalar == "\n" || scalar == "\r" { continue }
            if scalar == ":" { return scheme.isEmpty ? nil : scheme }
            if scalar == "/" || scalar == "?" || scalar == "#" { return nil }
            let ok =
                scheme.isEmpty
                ? scalar.properties.isAlphabetic && scalar.isASCII
                : (scalar.isASCII
                    && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                        || "+-.".unicodeScalars.contains(scalar)))
            if !ok { return nil }
            scheme.unicodeScalars.append(
                Unicode.Scalar(UInt8(scalar.value)).properties.lowercaseMapping.unicodeScalars.first!)
        }
        return nil
    }
}
