import Logging

extension Logger {
    /// The journal's line about wrong pairing codes, with their counts (`PairingGuard` says when it is due).
    func wrongPairingCodes(_ attempts: PairingAttempts) {
        warning("\(attempts)", metadata: [
            "attempts": "\(attempts.total)", "looked_at": "\(attempts.wrong)", "refused_unread": "\(attempts.refused)",
            "addresses": "\(attempts.addresses)", "peer": "\(attempts.lastAddress)"])
    }
}
