/// How deeply a JSON text nests its arrays and objects, found in one pass over its bytes without decoding it: what
/// bounds the work of decoding a request (a decoder's cost grows much faster than the depth) before it starts.
public enum JSONNesting {
    /// The deepest nesting of `bytes` (0 for a scalar, 1 for `[]` or `{}`), counted up to `limit + 1`: a text nested
    /// deeper than `limit` stops the count there. Brackets inside strings do not count; the text need not be valid.
    public static func depth(of bytes: some Sequence<UInt8>, stoppingAbove limit: Int) -> Int {
        var depth = 0
        var deepest = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > deepest {
                    deepest = depth
                    if deepest > limit { return deepest }
                }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth = max(0, depth - 1)
            default:
                break
            }
        }
        return deepest
    }
}
