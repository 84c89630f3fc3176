import Foundation
import Synchronization
import Testing
import TrackCore
@testable import TrackInput

/// A recorded log played as a receiver: what it says about itself.
struct FileSourceTests {
    private let log = Bundle.module.url(forResource: "serial-drive", withExtension: "nmea", subdirectory: "Fixtures")!.path

    /// The first event the source delivers when played at `speed`; the playing is stopped after it.
    private func firstState(speed: Double) async throws -> SourceState? {
        let (events, continuation) = AsyncStream.makeStream(of: SourceEvent.self)
        let source = FileSource(path: log, speed: speed)
        let playing = Task { try await source.run { continuation.yield($0) } }
        var first: SourceEvent?
        for await event in events {
            first = event
            break
        }
        playing.cancel()
        _ = await playing.result
        guard case .state(let state) = first else { return nil }
        return state
    }

    @Test func saysWhatItPlaysAndHowFast() async throws {
        let fast = try await firstState(speed: 2.5)
        #expect(fast == .connected("playing \(log) at 2.5×"))
        let whole = try await firstState(speed: 4)
        #expect(whole == .connected("playing \(log) at 4×"))
        let full = try await firstState(speed: 0)
        #expect(full == .connected("playing \(log) at full speed"))
    }
}
