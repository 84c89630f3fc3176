#if canImport(Glibc)
import Glibc
#endif

/// How much longer than usual a test waits before it calls an event missing: `TRACKD_TEST_PATIENCE` (a factor, 1 by
/// default). The waits themselves end at the event (a line in a log, a socket, a status field); their bounds only
/// stop a stuck test. A build that runs everything several times slower (AddressSanitizer, ThreadSanitizer) gets
/// bounds as many times longer from `scripts/test-sanitizers`, so that slowness alone never reads as a failure.
public enum TestPatience {
    /// The factor the bounds of waits are multiplied by.
    public static let factor: Double = {
        guard let text = getenv("TRACKD_TEST_PATIENCE"), let value = Double(String(cString: text)), value >= 1 else {
            return 1
        }
        return value
    }()

    /// `seconds`, stretched by the factor.
    public static func seconds(_ seconds: Double) -> Double {
        seconds * factor
    }

    /// `duration`, stretched by the factor.
    public static func duration(_ duration: Duration) -> Duration {
        duration * factor
    }

    /// Whole minutes for a test's time limit (`.timeLimit(.minutes(...))`), stretched by the factor.
    public static func minutes(_ minutes: Int) -> Int {
        Int((Double(minutes) * factor).rounded(.up))
    }
}
