#if canImport(Glibc)
import Glibc
#endif
import SystemPackage
import TrackCore

/// Plays a recorded NMEA log into a descriptor (a pseudo-terminal's master) as a receiver would send it: every
/// framed sentence followed by CRLF, at `speed` times the recorded pace.
///
/// Pacing follows `PlaybackSchedule`, as `FileSource` does. What the framer does not pass on (junk, UBX frames,
/// broken lines) is not played; sentences with bad checksums are, as a receiver would send them.
///
/// While nobody reads the other side (a pty master polls `POLLHUP` until a reader opens the slave) or its buffer
/// is full, the data is kept and playback pauses; it resumes at the recorded pace, not in a burst. A failed write
/// ends `play` with an error.
public struct NMEAPlayer: Sendable {
    /// The log, as given.
    public let path: String
    /// Multiple of the recorded pace; 0 plays as fast as the reader takes it.
    public let speed: Double
    /// Start again from the beginning at the end of the log, until stopped.
    public let loops: Bool
    public let framing: NMEAFramer.Configuration

    /// How long to wait between looking for a reader while none is there.
    static let readerCheckInterval = 0.1
    /// Lateness beyond which the schedule is moved, rather than the backlog played in a burst.
    static let allowedLateness = 0.25
    /// Bytes gathered before they are written even if more sentences are due at once.
    static let batchSize = 4096

    public init(path: String, speed: Double = 1, loops: Bool = false,
                framing: NMEAFramer.Configuration = NMEAFramer.Configuration()) {
        self.path = path
        self.speed = speed
        self.loops = loops
        self.framing = framing
    }

    /// What a playback did.
    public struct Summary: Sendable, Hashable {
        /// Sentences written.
        public var sentences = 0
        /// Times the log was played through to its end.
        public var passes = 0
        /// Pieces of the log the framer dropped (not played).
        public var dropped = 0

        public init() {}
    }

    /// Plays the log into `descriptor` until its end (or, with `loops`, until stopped); blocks the calling thread.
    /// A stop returns at once with what was played so far. The descriptor should be non-blocking.
    public func play(into descriptor: Int32, stop: StopSignal) throws(NMEAPlayerError) -> Summary {
        var output = PlayerOutput(descriptor: descriptor)
        var summary = Summary()
        var firstPass = true
        while !stop.isStopped {
            if !firstPass {
                // A pause of one typical epoch between the end and the new beginning.
                if speed > 0 && !stop.sleep(seconds: 1 / speed) { break }
            }
            firstPass = false
            var file: InputFile
            do {
                file = try InputFile(path: path, chunkSize: 1 << 16)
            } catch {
                throw .cannotRead(error.description)
            }
            guard try playOnce(&file, into: &output, summary: &summary, stop: stop) else { break }
            summary.passes += 1
            if !loops { break }
        }
        return summary
    }

    /// One pass through the log; `false` if stopped.
    private func playOnce(
        _ file: inout InputFile, into output: inout PlayerOutput, summary: inout Summary, stop: StopSignal
    ) throws(NMEAPlayerError) -> Bool {
        var framer = NMEAFramer(configuration: framing)
        var schedule = PlaybackSchedule(speed: speed)
        var start = MonotonicClock.now()
        /// When the sentences queued in `output` were due, seconds after `start`.
        var queuedDue = 0.0
        var failure: NMEAPlayerError?
        let speed = self.speed
        /// Writes what is queued; if the reader kept us waiting, the recorded pace is taken up again from now
        /// rather than the rest of the log played in a burst to catch up.
        func flushKeepingPace() throws(NMEAPlayerError) -> Bool {
            guard try output.flush(stop) else { return false }
            let lateness = MonotonicClock.now().seconds(since: start) - queuedDue
            if speed > 0 && lateness > NMEAPlayer.allowedLateness {
                start = start.adding(seconds: lateness)
            }
            return true
        }
        func handle(_ event: NMEAFramer.Event) {
            guard failure == nil, !stop.isStopped else { return }
            switch event {
            case .sentence(let bytes, _):
                do throws(NMEAPlayerError) {
                    if speed > 0 {
                        let due = schedule.due(timeOfDay: PlaybackSchedule.timeOfDay(of: bytes))
                        var wait = due - MonotonicClock.now().seconds(since: start)
                        if wait > 0 {
                            // The queued epoch is due by now: send it before waiting for the next one.
                            guard try flushKeepingPace() else { return }
                            wait = due - MonotonicClock.now().seconds(since: start)
                        }
                        if wait < -NMEAPlayer.allowedLateness {
                            start = start.adding(seconds: -wait)
                        } else if wait > 0 && !stop.sleep(seconds: wait) {
                            return
                        }
                        queuedDue = due
                    }
                    output.append(bytes)
                    summary.sentences += 1
                    if output.pendingCount >= NMEAPlayer.batchSize {
                        guard try flushKeepingPace() else { return }
                    }
                } catch {
                    failure = error
                }
            case .dropped:
                summary.dropped += 1
            }
        }
        do {
            while !stop.isStopped, failure == nil, try file.next({ chunk in framer.feed(chunk, handle) }) {}
        } catch {
            throw .cannotRead("\(error)")
        }
        if let failure { throw failure }
        guard !stop.isStopped else { return false }
        framer.finish(handle)
        if let failure { throw failure }
        return try output.flush(stop)
    }
}

/// Bytes on their way to the descriptor, kept while it cannot take them.
private struct PlayerOutput {
    let descriptor: Int32
    private var pending: [UInt8] = []
    private var written = 0

    init(descriptor: Int32) {
        self.descriptor = descriptor
        pending.reserveCapacity(NMEAPlayer.batchSize * 2)
    }

    var pendingCount: Int { pending.count - written }

    /// Queues a sentence and its CRLF.
    mutating func append(_ sentence: UnsafeBufferPointer<UInt8>) {
        pending.append(contentsOf: sentence)
        pending.append(0x0D)
        pending.append(0x0A)
    }

    /// Writes everything queued, waiting for a reader and for room as long as it takes; `false` if stopped.
    mutating func flush(_ stop: StopSignal) throws(NMEAPlayerError) -> Bool {
        while written < pending.count {
            guard !stop.isStopped else { return false }
            var descriptors = [
                pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0),
                pollfd(fd: stop.descriptor, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&descriptors, 2, 1000)
            if ready < 0 {
                if errno == EINTR { continue }
                throw .cannotWrite(Errno(rawValue: errno))
            }
            let events = Int32(descriptors[0].revents)
            if events & POLLNVAL != 0 { throw .cannotWrite(.badFileDescriptor) }
            if events & POLLHUP != 0 {
                // Nobody has the other side open: keep the data until someone does.
                guard stop.sleep(seconds: NMEAPlayer.readerCheckInterval) else { return false }
                continue
            }
            guard events & (POLLOUT | POLLERR) != 0 else { continue }
            let count = pending.withUnsafeBytes { bytes in
                Glibc.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            }
            if count >= 0 {
                written += count
                continue
            }
            switch errno {
            case EAGAIN, EINTR: continue
            case let error: throw .cannotWrite(Errno(rawValue: error))
            }
        }
        pending.removeAll(keepingCapacity: true)
        written = 0
        return true
    }
}

/// Why a playback ended early.
public enum NMEAPlayerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The log cannot be opened or read.
    case cannotRead(String)
    /// Writing to the descriptor failed.
    case cannotWrite(Errno)

    public var description: String {
        switch self {
        case .cannotRead(let reason): reason
        case .cannotWrite(let error): "cannot write to the pseudo-terminal: \(error.description)"
        }
    }
}
