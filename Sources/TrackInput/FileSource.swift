import TrackCore

/// A recorded NMEA log played as if a receiver were sending it, at `speed` times its recorded pace
/// (0 = as fast as possible). For demos and tests: after framing it takes the same path as a serial receiver.
public struct FileSource: FixSource {
    public let path: String
    public let speed: Double
    public let configuration: NMEAReader.Configuration

    public init(path: String, speed: Double, configuration: NMEAReader.Configuration = NMEAReader.Configuration()) {
        self.path = path
        self.speed = speed
        self.configuration = configuration
    }

    public var description: String { SourceAddress.file(path: path, speed: speed).description }

    public func run(_ deliver: @escaping @Sendable (SourceEvent) -> Void) async throws {
        let path = self.path
        let speed = self.speed
        let configuration = self.configuration
        try await BlockingThread.run(name: "trackd-file") { stop in
            var file = try InputFile(path: path)
            deliver(.state(.connected("playing \(path) at \(speed == 0 ? "full speed" : "\(speed.plainDescription)×")")))
            var framer = NMEAFramer(configuration: configuration.framing)
            var decoder = NMEADecoder(configuration: configuration.assembly)
            var schedule = PlaybackSchedule(speed: speed)
            let start = MonotonicClock.now()
            let forward: (NMEADecoder.Event) -> Void = { event in
                switch event {
                case .fix(let fix): deliver(.fix(fix, receivedAt: MonotonicClock.now()))
                case .problem(let diagnostic): deliver(.problem(diagnostic))
                }
            }
            func handle(_ event: NMEAFramer.Event) {
                guard !stop.isStopped else { return }
                switch event {
                case .sentence(let bytes, let position):
                    if speed > 0 {
                        let due = schedule.due(timeOfDay: PlaybackSchedule.timeOfDay(of: bytes))
                        let wait = due - MonotonicClock.now().seconds(since: start)
                        if wait > 0 && !stop.sleep(seconds: wait) { return }
                    }
                    decoder.decode(sentence: bytes, at: position, forward)
                case .dropped(let problem, let position, let excerpt):
                    decoder.framingProblem(problem, at: position, excerpt: excerpt, forward)
                }
            }
            while !stop.isStopped, try file.next({ chunk in framer.feed(chunk, handle) }) {}
            if !stop.isStopped {
                framer.finish(handle)
                decoder.flush(forward)
                deliver(.state(.ended))
            }
        }
    }
}
