/// Page text that is not a number (numbers with their units are `NumberFormat`'s).
package enum PageText {
    /// `text` with its first letter upper-cased, to start a sentence or a table row.
    package static func sentence(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }
}
