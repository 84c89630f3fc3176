#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import TrackCore
import TrackDigest
import TrackWebClient

/// Who may open the page: the paired devices (kept in `DeviceStore`, looked up through a cache), the pairing codes
/// waiting to be used, and the throttle on wrong codes. Pairing codes live only in memory, timed by the monotonic
/// clock: a board without a real-time clock may set its wall clock hours later, which must not stretch or cut a
/// code's life.
///
/// A board that no device has paired with yet may be claimed with its owner code (the card image's setup gives it:
/// docs/setup.md): typed into the pairing form, it pairs the first phone as the driver, once; from then on only codes
/// made at the board pair. A wrong owner code counts as a wrong pairing code (the same throttle); past
/// `PairingGuard.wrongCodesPerCode` wrong codes the owner code stops working too, until someone at the board makes a
/// pairing code.
public final class DeviceRegistry: Sendable {
    /// How long a pairing code stays valid.
    public static let codeLifetime: Duration = .seconds(600)
    /// A device's last use is written at most this often (the card is written to once per quarter hour of use,
    /// not once per request).
    static let lastUseResolution: Int64 = 900

    /// A code `trackctl web pair` made, until it is used or expires.
    struct PendingCode: Sendable {
        var digest: String
        var role: WebRole
        var expires: ContinuousClock.Instant
    }

    struct State: Sendable {
        var codes: [PendingCode] = []
        var guarding = PairingGuard()
        /// Devices seen since trackd-web started, by the digest of their token.
        var known: [String: PairedDevice] = [:]
        /// Whether a device has ever paired (then the owner code no longer pairs).
        var claimed = false
        /// Whether so many wrong codes came that the owner code was spent (until a code is made at the board).
        var ownerCodeSpent = false
    }

    /// What became of a pairing attempt.
    public enum PairingOutcome: Sendable, Equatable {
        /// The code was right: the device and its session token (given to the browser once, never stored).
        case paired(PairedDevice, token: String)
        /// No such code, or it expired; the number of wrong codes in a row.
        case wrongCode(inARow: Int)
        /// Too many wrong codes: the code was not even looked at; try again after the wait.
        case throttled(retryAfter: Duration)
    }

    private let store: DeviceStore
    private let state: Mutex<State>
    /// The SHA-256 of the owner code, as typed without spaces and dashes, in capitals.
    private let ownerCodeDigest: String?

    /// Opens the paired devices' file at `path` (created when missing); `ownerCode` lets the first device claim the
    /// board while none has paired.
    public init(path: String, ownerCode: String? = nil) throws(WebError) {
        store = try DeviceStore(path: path)
        let claimed: Bool
        do {
            claimed = try !store.all().isEmpty
        } catch {
            throw .deviceStore(path: path, reason: "\(error)")
        }
        state = Mutex(State(claimed: claimed))
        ownerCodeDigest = ownerCode.map(Self.normalized).flatMap { $0.isEmpty ? nil : Self.digest($0) }
    }

    /// Whether a device may still claim the board with the owner code: there is one, no device has paired, and it
    /// was not spent by guessing.
    public var isClaimable: Bool {
        ownerCodeDigest != nil && state.withLock { !$0.claimed && !$0.ownerCodeSpent }
    }

    /// A new one-time pairing code of eight digits for a device of `role`, valid for `codeLifetime`. Someone at the
    /// board asked for it, so the throttle on wrong codes starts again.
    /// `report` hears the wrong attempts since the last code that the journal has not been told of.
    public func newCode(role: WebRole, at now: ContinuousClock.Instant,
                        report: (PairingAttempts) -> Void = { _ in }) -> String {
        var generator = SystemRandomNumberGenerator()
        let number = UInt32.random(in: 0..<100_000_000, using: &generator)
        let code = String(repeating: "0", count: 8 - String(number).count) + String(number)
        let unreported = state.withLock { state in
            state.codes.removeAll { $0.expires <= now }
            state.codes.append(PendingCode(digest: Self.digest(code), role: role, expires: now + Self.codeLifetime))
            state.ownerCodeSpent = false
            return state.guarding.reset()
        }
        unreported.map(report)
        return code
    }

    /// Whether a pairing code is waiting to be used (trackd-web stays up for it).
    public func hasPendingCodes(at now: ContinuousClock.Instant) -> Bool {
        state.withLock { state in state.codes.contains { $0.expires > now } }
    }

    /// Pairs a device with `code` (spaces and dashes ignored) typed at `address` (the peer's IP address): a new
    /// device named `deviceName` with the code's role and a fresh session token, or why not. `report` hears the
    /// wrong attempts so far when the journal is due to (`PairingGuard`).
    public func pair(code: String, deviceName: String, from address: String, at now: ContinuousClock.Instant,
                     wallTime: Int64, report: (PairingAttempts) -> Void = { _ in }) throws -> PairingOutcome {
        let typed = Self.normalized(code)
        let ownerCodeDigest = self.ownerCodeDigest
        let (claim, due): (Result<PendingCode, PairingRefusal>, PairingAttempts?) = state.withLock { state in
            if let wait = state.guarding.wait(for: address, at: now) {
                state.guarding.recordRefused(from: address)
                return (.failure(.throttled(wait)), state.guarding.dueReport())
            }
            state.codes.removeAll { $0.expires <= now }
            let digest = Self.digest(typed)
            guard let index = state.codes.firstIndex(where: { $0.digest == digest }) else {
                if let ownerCodeDigest, digest == ownerCodeDigest, !state.claimed, !state.ownerCodeSpent {
                    // The board's first device, claimed with the owner code: the driver.
                    state.claimed = true
                    state.guarding.paired(from: address)
                    return (.success(PendingCode(digest: digest, role: .driver, expires: now)), nil)
                }
                let inARow = state.guarding.recordWrongCode(from: address, at: now)
                if state.guarding.codesSpent {
                    state.codes.removeAll()
                    state.ownerCodeSpent = true
                }
                return (.failure(.wrong(inARow)), state.guarding.dueReport())
            }
            state.guarding.paired(from: address)
            state.claimed = true
            return (.success(state.codes.remove(at: index)), nil)
        }
        due.map(report)
        let claimed: PendingCode
        switch claim {
        case .failure(.throttled(let wait)): return .throttled(retryAfter: wait)
        case .failure(.wrong(let inARow)): return .wrongCode(inARow: inARow)
        case .success(let code): claimed = code
        }
        let token = Self.newToken()
        let oneLine = deviceName.oneLine
        let name = oneLine.isEmpty ? "device" : String(oneLine.prefix(80))
        let device = try store.add(name: name, role: claimed.role, tokenDigest: Self.digest(token), at: wallTime)
        state.withLock { $0.known[Self.digest(token)] = device }
        return .paired(device, token: token)
    }

    /// The device a session token belongs to, `nil` when the token is unknown or its device revoked. Notes the
    /// use (written to the file at most every `lastUseResolution` seconds).
    public func device(token: String, wallTime: Int64) throws -> PairedDevice? {
        let digest = Self.digest(token)
        var device = state.withLock { $0.known[digest] }
        if device == nil {
            device = try store.device(tokenDigest: digest)
        }
        guard var device, device.revokedAt == nil else { return nil }
        if wallTime - (device.lastUsedAt ?? 0) >= Self.lastUseResolution || wallTime < (device.lastUsedAt ?? 0) {
            try store.touch(id: device.id, at: wallTime)
            device.lastUsedAt = wallTime
        }
        state.withLock { [device] in $0.known[digest] = device }
        return device
    }

    /// Every paired device, revoked ones included.
    public func devices() throws -> [PairedDevice] {
        try store.all()
    }

    /// Ends device `id`'s session at once: its next request is refused. `nil` when there is no such device.
    public func revoke(id: Int64, wallTime: Int64) throws -> PairedDevice? {
        guard let device = try store.revoke(id: id, at: wallTime) else { return nil }
        state.withLock { state in
            for (digest, known) in state.known where known.id == id {
                state.known[digest] = device
            }
        }
        return device
    }

    /// A code as typed, without spaces and dashes, in capitals (an owner code may hold letters).
    private static func normalized(_ code: String) -> String {
        String(code.filter { $0 != " " && $0 != "-" }).uppercased()
    }

    private static func digest(_ text: String) -> String {
        SHA256.hex(of: text.utf8)
    }

    /// 32 random bytes in hexadecimal, from the kernel's random source (getrandom).
    private static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for _ in 0..<32 {
            let byte = UInt8.random(in: 0...255, using: &generator)
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// Why a code was not looked at or not found, inside the registry's lock.
private enum PairingRefusal: Error {
    case throttled(Duration)
    case wrong(Int)
}
