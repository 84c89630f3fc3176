/// The messages in flight to the broker or server and the watermark they move: items are taken from the log in
/// order, published, and acknowledged in any order; the watermark moves over the acknowledged ones as far as they
/// are contiguous, so that after a restart nothing unacknowledged is skipped and only what was in flight is sent
/// again. The newest position can go ahead of the backlog (`takeAhead`): it is sent at once, and passed over
/// when the backlog reaches it.
public struct UplinkWindow: Sendable {
    /// Everything up to here was acknowledged.
    public private(set) var acknowledged: UplinkCursor
    /// Everything up to here was taken from the log (sent, or waiting to be).
    public private(set) var read: UplinkCursor
    /// The most messages in flight at once.
    public let limit: Int

    private struct Entry: Sendable {
        var position: UplinkPosition
        var token: Int32?
        var acked: Bool
    }

    /// Taken in order, oldest first, until acknowledged and passed by the watermark.
    private var entries: [Entry] = []
    /// Sent ahead of the backlog: the message's token while in flight, `nil` once acknowledged.
    private var ahead: [UplinkPosition: Int32?] = [:]
    private var tokens: [Int32: UplinkPosition] = [:]

    /// A window that resumes after `acknowledged`, with the positions in `acknowledgedAhead` acknowledged already
    /// (they are passed over when the backlog reaches them).
    public init(acknowledged: UplinkCursor, acknowledgedAhead: [UplinkPosition] = [], limit: Int = 100) {
        self.acknowledged = acknowledged
        read = acknowledged
        self.limit = max(1, limit)
        for position in acknowledgedAhead where !acknowledged.covers(position) { ahead[position] = .some(nil) }
    }

    /// A window that resumes after what `mark` says was acknowledged.
    public init(resuming mark: UplinkMark, limit: Int = 100) {
        self.init(acknowledged: mark.acknowledged, acknowledgedAhead: mark.ahead, limit: limit)
    }

    /// What was acknowledged: the watermark and the positions acknowledged ahead of it (oldest first).
    public var mark: UplinkMark {
        let positions = ahead.filter { $0.value == nil }.map(\.key)
        return UplinkMark(acknowledged: acknowledged, ahead: positions.sorted(by: UplinkPosition.logOrder))
    }

    /// Messages sent and not yet acknowledged.
    public var inFlight: Int { tokens.count }
    /// Whether no more may be sent until some are acknowledged.
    public var isFull: Bool { tokens.count >= limit }

    /// Takes the next item of the log, in order: `true` when it is to be published now (then `published`), `false`
    /// when it went ahead already.
    public mutating func take(_ position: UplinkPosition) -> Bool {
        read = read.advanced(past: position)
        if let state = ahead.removeValue(forKey: position) {
            entries.append(Entry(position: position, token: state, acked: state == nil))
            settle()
            return false
        }
        entries.append(Entry(position: position, token: nil, acked: false))
        return true
    }

    /// Whether the item at `position`, beyond `read`, may be sent ahead of the backlog (then `published`).
    public func mayGoAhead(_ position: UplinkPosition) -> Bool {
        !read.covers(position) && ahead[position] == nil && tokens.count < limit
    }

    /// An item was handed to the broker's client under `token` (its message id); `ahead` when sent before its turn.
    public mutating func published(_ position: UplinkPosition, token: Int32, ahead wentAhead: Bool = false) {
        tokens[token] = position
        if wentAhead {
            ahead[position] = .some(token)
        } else if let index = entries.lastIndex(where: { $0.position == position }) {
            entries[index].token = token
        }
    }

    /// The broker or server acknowledged the message `token`; `true` when the watermark moved.
    @discardableResult
    public mutating func acknowledge(_ token: Int32) -> Bool {
        guard let position = tokens.removeValue(forKey: token) else { return false }
        if let index = entries.firstIndex(where: { $0.position == position && $0.token == token }) {
            entries[index].acked = true
            return settle()
        }
        if ahead[position] != nil { ahead[position] = .some(nil) }
        return false
    }

    /// The connection went: what was in flight is sent again from the watermark, in order (an item acknowledged
    /// ahead of its turn is not).
    public mutating func reset() {
        entries.removeAll()
        tokens.removeAll()
        ahead = ahead.filter { $0.value == nil }
        read = acknowledged
    }

    /// Moves the watermark over the acknowledged entries at the front.
    @discardableResult
    private mutating func settle() -> Bool {
        var moved = false
        while let first = entries.first, first.acked {
            acknowledged = acknowledged.advanced(past: first.position)
            entries.removeFirst()
            moved = true
        }
        return moved
    }
}
