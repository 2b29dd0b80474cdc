import Formats

/// Escapes `& < > " '` as `&amp; &lt; &gt; &quot; &#39;`: the escaping `{{name}}` applies. Forbidden
/// code points become U+FFFD and text holding bidi controls is isolated: `HTMLText`, the one
/// escaper of every page.
package func escapeHTML(_ s: String) -> String { HTMLText.escape(s) }

/// Appends the UTF-8 of `s` to `out`, escaped as `escapeHTML` does.
func appendEscapedHTML(_ s: String, to out: inout [UInt8]) { HTMLText.append(s, to: &out) }
