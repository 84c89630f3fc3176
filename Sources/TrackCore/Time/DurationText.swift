/// A stretch of time as trackd says it to people, the journal and `trackctl` alike: `42 s`, `3 min 5 s`, `2 min`,
/// `1 h 30 min`, `2 h`. Under an hour it is rounded to the second, from an hour on to the minute; a zero last part
/// is left out.
public enum DurationText {
    public static func of(_ seconds: Double) -> String {
        let seconds = max(0, seconds)
        if seconds.rounded() < 3600 {
            let total = Int(seconds.rounded())
            switch (total / 60, total % 60) {
            case (0, let s): return "\(s) s"
            case (let m, 0): return "\(m) min"
            case (let m, let s): return "\(m) min \(s) s"
            }
        }
        let minutes = Int((seconds / 60).rounded())
        switch (minutes / 60, minutes % 60) {
        case (let h, 0): return "\(h) h"
        case (let h, let m): return "\(h) h \(m) min"
        }
    }
}
