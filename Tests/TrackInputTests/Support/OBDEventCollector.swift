import Synchronization
import TestSupport
import TrackCore
import TrackInput

/// The events an OBD source delivered, for a test to wait on and inspect.
final class OBDEventCollector: Sendable {
    private let events = Mutex<[OBDSource.Event]>([])

    init() {}

    /// Everything delivered so far, in order.
    var all: [OBDSource.Event] { events.withLock { $0 } }

    /// The dialogue's events so far.
    var dialogue: [OBDEvent] { all.compactMap { if case .dialogue(let event) = $0 { event } else { nil } } }

    /// The link's states so far.
    var states: [SourceState] { all.compactMap { if case .state(let state) = $0 { state } else { nil } } }

    /// What `auto` found so far, in order.
    var chosen: [(address: OBDAddress, reason: String)] {
        all.compactMap { if case .chosen(let address, let reason) = $0 { (address, reason) } else { nil } }
    }

    /// How many `.connected` states were delivered so far.
    var connections: Int { states.count { if case .connected = $0 { true } else { false } } }

    /// The reasons of the `.lost` states so far.
    var lostReasons: [String] { states.compactMap { if case .lost(let reason) = $0 { reason } else { nil } } }

    /// The readings so far, without their time.
    var readings: [OBDReading] { dialogue.compactMap { if case .reading(let reading, _) = $0 { reading } else { nil } } }

    var speeds: [Double] { readings.compactMap { if case .speed(let speed) = $0 { speed } else { nil } } }
    var engineSpeeds: [Double] { readings.compactMap { if case .engineSpeed(let rpm) = $0 { rpm } else { nil } } }
    var odometers: [Double] { readings.compactMap { if case .odometer(let km) = $0 { km } else { nil } } }
    var voltages: [Double] { dialogue.compactMap { if case .voltage(let volts) = $0 { volts } else { nil } } }

    /// How many times a car answered the search for it.
    /// The VINs read.
    var vins: [String] { dialogue.compactMap { if case .vin(let vin) = $0 { vin } else { nil } } }
    /// What the car said of its odometer (PID A6): has one or not.
    var odometerSupport: [Bool] { dialogue.compactMap { if case .odometerSupport(let has) = $0 { has } else { nil } } }
    var carAnswers: Int { dialogue.count { if case .carAnswered = $0 { true } else { false } } }
    /// How often the adapter answered the reset with its greeting (once per setting up).
    var adapterGreetings: Int { dialogue.count { if case .adapter = $0 { true } else { false } } }

    /// The reasons the car went silent.
    var silences: [String] { dialogue.compactMap { if case .carSilent(let reason) = $0 { reason } else { nil } } }

    /// The reasons given for unusable answers.
    var unanswered: [String] { dialogue.compactMap { if case .unanswered(let reason) = $0 { reason } else { nil } } }

    /// The number of events so far, to wait for what comes after a moment.
    var count: Int { events.withLock { $0.count } }

    /// The dialogue's events after the first `start` events.
    func dialogue(after start: Int) -> [OBDEvent] {
        Array(all.dropFirst(start)).compactMap { if case .dialogue(let event) = $0 { event } else { nil } }
    }

    /// Waits until `condition` holds (checked every 20 ms, for up to `timeout` seconds); whether it came to hold.
    func wait(upTo timeout: Double = 30, until condition: (OBDEventCollector) -> Bool) async -> Bool {
        await poll(upTo: timeout) { condition(self) }
    }

    /// Runs `source`, delivering here, while `body` runs; then stops it and waits for `run` to return.
    func collect(from source: OBDSource, while body: () async throws -> Void) async throws {
        try await running({ try await source.run { event in self.events.withLock { $0.append(event) } } }, while: body)
    }
}
