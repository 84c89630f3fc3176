import TrackCore

/// Everything trackctl prints goes through here (it stands in for the standard library's `print` in this module):
/// text from the log is made safe for a terminal first (`String.terminalSafe`), whether standard output is a terminal
/// or a file read later with `cat`. JSON is unchanged by it: its encoder writes control characters as `\u001b`.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    Swift.print(items.map { "\($0)" }.joined(separator: separator).terminalSafe, terminator: terminator)
}
