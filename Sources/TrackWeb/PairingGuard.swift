/// The wrong pairing codes since someone at the board last made a code: a `PairingThrottle` for each address they
/// came from, so that a stranger guessing from one address slows only that address and the owner, on another, still
/// pairs at once; and the counts the journal is told, at the 1st, 10th, 100th… attempt rather than at each one.
/// Past `wrongCodesPerCode` wrong codes (from however many addresses) the codes waiting are spent, so that guessing
/// from ever new addresses wins at most one chance in ten thousand of an eight-digit code.
struct PairingGuard: Sendable {
    /// Addresses kept; beyond, those not waiting are forgotten first.
    static let maxAddresses = 4096
    /// Wrong codes after which the codes waiting are spent.
    static let wrongCodesPerCode = 10_000

    private(set) var throttles: [String: PairingThrottle] = [:]
    /// Since the last code was made.
    private(set) var attempts = PairingAttempts()
    /// `attempts.total` when the journal was last told.
    private var reported = 0

    /// How long `address` must still wait before its code is looked at; `nil` when it may try now.
    func wait(for address: String, at now: ContinuousClock.Instant) -> Duration? {
        throttles[address]?.wait(at: now)
    }

    /// Counts a wrong code from `address`; its wrong codes in a row.
    mutating func recordWrongCode(from address: String, at now: ContinuousClock.Instant) -> Int {
        if throttles[address] == nil {
            makeRoom(at: now)
            attempts.addresses += 1
        }
        throttles[address, default: PairingThrottle()].recordWrongCode(at: now)
        attempts.wrong += 1
        attempts.lastAddress = address
        return throttles[address]?.wrongInARow ?? 1
    }

    /// Counts an attempt from `address` refused unread while it waits.
    mutating func recordRefused(from address: String) {
        attempts.refused += 1
        attempts.lastAddress = address
    }

    /// Whether so many wrong codes came since the last code that the codes waiting must be spent.
    var codesSpent: Bool { attempts.wrong >= Self.wrongCodesPerCode }

    /// The counts when the journal is due to hear them: at 1, 10, 100… attempts.
    mutating func dueReport() -> PairingAttempts? {
        let total = attempts.total
        guard total > reported, Self.isPowerOfTen(total) else { return nil }
        reported = total
        return attempts
    }

    /// A correct code from `address`: its count starts again.
    mutating func paired(from address: String) {
        throttles[address] = nil
    }

    /// Someone at the board made a new code: every count starts again. The counts the journal has not heard yet.
    mutating func reset() -> PairingAttempts? {
        let unreported = attempts.total > reported ? attempts : nil
        self = PairingGuard()
        return unreported
    }

    /// Forgets addresses not waiting (or, all waiting, the one whose wait ends first) when the table is full.
    private mutating func makeRoom(at now: ContinuousClock.Instant) {
        guard throttles.count >= Self.maxAddresses else { return }
        throttles = throttles.filter { $0.value.wait(at: now) != nil }
        if throttles.count >= Self.maxAddresses,
           let first = throttles.min(by: { ($0.value.wait(at: now) ?? .zero) < ($1.value.wait(at: now) ?? .zero) }) {
            throttles[first.key] = nil
        }
    }

    private static func isPowerOfTen(_ number: Int) -> Bool {
        var value = number
        while value >= 10 && value % 10 == 0 { value /= 10 }
        return value == 1
    }
}

/// Pairing attempts with a wrong code since the last code was made, as the journal is told them.
public struct PairingAttempts: Sendable, Equatable, CustomStringConvertible {
    /// Codes looked at and not found.
    public var wrong = 0
    /// Attempts refused unread while their address waited.
    public var refused = 0
    /// Addresses they came from.
    public var addresses = 0
    /// The address of the latest.
    public var lastAddress = ""

    public var total: Int { wrong + refused }

    public var description: String {
        "\(total) pairing attempt\(total == 1 ? "" : "s") with a wrong code since the last code was made "
            + "(\(wrong) looked at, \(refused) refused unread while their address waited), from \(addresses) "
            + "address\(addresses == 1 ? "" : "es"), the latest \(lastAddress)"
    }
}
