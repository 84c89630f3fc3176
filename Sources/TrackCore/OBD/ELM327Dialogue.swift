/// The conversation trackd holds with an ELM327 adapter, as its data sheet describes it: reset, echo, linefeeds,
/// spaces and headers off, the protocol found automatically, the car identified, then a few parameters polled at
/// a pace the bus tolerates. Pure: the I/O layer sends what `next(at:)` says, waits for the `>` prompt, and hands
/// the answer (or its absence) back; what the car said comes out as `OBDEvent`s.
///
/// A car that does not answer (ignition off, a bus error) is asked again every `carRetryInterval` while the
/// battery voltage is read every `silentVoltageInterval`, which needs no car (a rising voltage is the engine starting); an adapter that does not answer `timeoutsBeforeLost`
/// commands in a row is reported lost, and the dialogue starts again from the reset.
public struct ELM327Dialogue: Sendable {
    /// How often each thing is asked, and how long an answer may take.
    public struct Configuration: Sendable, Hashable {
        /// Seconds between two readings of the speed (PID 0D) and engine speed (PID 0C).
        public var motionInterval: Double = 1
        /// Seconds between two readings of the battery voltage (AT RV, answered by the adapter itself) while the car
        /// answers, and while it does not: then the voltage is what tells that the engine started, and reading it
        /// costs the car's bus nothing.
        public var voltageInterval: Double = 5
        public var silentVoltageInterval: Double = 1
        /// Seconds between two readings of the odometer (PID A6), where the car has one.
        public var odometerInterval: Double = 10
        /// Seconds between two attempts to reach a car that does not answer.
        public var carRetryInterval: Double = 5
        /// Seconds a car may stay silent before it counts as parked and is asked less often: its `01 00` every
        /// `parkedCarRetryInterval`, its voltage every `parkedVoltageInterval`, so that neither the car's bus nor the
        /// adapter is kept awake for the night on a board that stays powered. A voltage that rises to a charging
        /// one, or moves by `parkedWakeVolts` (the starter's dip, the alternator), brings the brisk pace back and
        /// the car is asked for at once: an engine start is seen within about `parkedVoltageInterval`.
        public var parkedAfter: Double = 120
        public var parkedCarRetryInterval: Double = 300
        public var parkedVoltageInterval: Double = 30
        public var parkedWakeVolts: Double = 0.3
        /// The longest wait for the prompt after a command; asking for the car (`01 00`, which may search for its
        /// protocol) gets `searchTimeout`.
        public var commandTimeout: Double = 5
        public var searchTimeout: Double = 20
        /// Commands in a row without a prompt after which the adapter counts as gone.
        public var timeoutsBeforeLost = 3
        /// Answers in a row without data (NO DATA, bus errors, refusals) after which the car counts as silent.
        public var failuresBeforeSilent = 3
        /// Seconds of polled answers that trackd cannot read (noise, answers to something else), with nothing
        /// readable between, after which the car counts as silent: a short burst of noise says nothing about the
        /// car, answers that are never readable must not keep a trip open for ever.
        public var unreadableBeforeSilent: Double = 15

        public init() {}
    }

    /// What the I/O layer is to do now.
    public enum Action: Sendable, Hashable {
        /// Send `command` followed by a carriage return, then wait up to `timeout` seconds for the prompt.
        case send(String, timeout: Double)
        /// Nothing is due until `until`.
        case wait(until: MonotonicInstant)
    }

    /// Where the conversation is.
    public enum Phase: Sendable, Hashable {
        /// Resetting the adapter (`AT Z`) and setting its format.
        case settingUp
        /// Asking for the car until one answers (`01 00`).
        case searching
        /// Reading who the car is: its protocol, VIN and whether it has an odometer.
        case identifying
        /// Reading speed, engine speed, voltage and odometer in turn.
        case polling
    }

    public let configuration: Configuration
    public private(set) var phase = Phase.settingUp

    /// The setup's commands still to send.
    private var setup: [String] = []
    /// The identification's requests still to send.
    private var identification: [Request] = []
    /// The command sent and not yet answered.
    private var pending: Request?
    /// When each polled thing is due next.
    private var due: [Request: MonotonicInstant] = [:]
    /// When the car is to be asked for again while it does not answer.
    private var nextSearch: MonotonicInstant?
    private var consecutiveTimeouts = 0
    private var consecutiveFailures = 0
    /// The first of the polled answers in a row that could not be read.
    private var unreadableSince: MonotonicInstant?
    /// Since when the car has not answered (the search began, or it went silent).
    private var silentSince: MonotonicInstant?
    /// The last voltage read while the car did not answer.
    private var silentVolts: Double?
    private var odometerSupported = false

    /// One thing asked of the adapter.
    enum Request: Sendable, Hashable {
        case command(String)
        case parameter(OBDParameter)
        case voltage
        case protocolName

        var text: String {
            switch self {
            case .command(let command): command
            case .parameter(let parameter): parameter.command
            case .voltage: "ATRV"
            case .protocolName: "ATDP"
            }
        }
    }

    /// The commands that reset the adapter and set the format the readers expect: `AT Z` (reset; answers its
    /// version), `AT E0` (no echo), `AT L0` (no linefeeds), `AT S0` (no spaces), `AT H0` (no headers), `AT SP 0`
    /// (find the car's protocol automatically).
    public static let setupCommands = ["ATZ", "ATE0", "ATL0", "ATS0", "ATH0", "ATSP0"]

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        restart()
    }

    /// Starts over from the reset, as after the link to the adapter was opened again.
    public mutating func restart() {
        phase = .settingUp
        setup = Self.setupCommands
        identification = []
        pending = nil
        due = [:]
        nextSearch = nil
        consecutiveTimeouts = 0
        consecutiveFailures = 0
        unreadableSince = nil
        silentSince = nil
        silentVolts = nil
        odometerSupported = false
    }

    /// Whether the car has been silent long enough at `now` to be asked less often.
    public func isParked(at now: MonotonicInstant) -> Bool {
        guard phase == .searching, let silentSince else { return false }
        return now.seconds(since: silentSince) >= configuration.parkedAfter
    }

    /// What to do at `now`.
    public mutating func next(at now: MonotonicInstant) -> Action {
        let request: Request
        let timeout: Double
        switch phase {
        case .settingUp:
            request = .command(setup.first ?? "ATZ")
            timeout = configuration.commandTimeout
        case .searching:
            if let voltageDue = due[.voltage], voltageDue <= now {
                request = .voltage
            } else if let nextSearch, nextSearch > now {
                return .wait(until: min(nextSearch, due[.voltage] ?? nextSearch))
            } else {
                request = .parameter(.supported01to20)
            }
            // Asked for the car, the adapter may search for its protocol again, as on the first search (after the
            // car was silent, a slow-init protocol takes 5–15 s): a shorter wait would interrupt every search.
            timeout = request == .voltage ? configuration.commandTimeout : configuration.searchTimeout
        case .identifying:
            request = identification.first ?? .parameter(.vehicleSpeed)
            timeout = configuration.commandTimeout
        case .polling:
            guard let (first, when) = due.min(by: { $0.value < $1.value || $0.value == $1.value && $0.key.order < $1.key.order })
            else { return .wait(until: now.adding(seconds: configuration.motionInterval)) }
            if when > now { return .wait(until: when) }
            request = first
            timeout = configuration.commandTimeout
        }
        pending = request
        return .send(request.text, timeout: timeout)
    }

    /// The adapter answered the command last sent with `reply` at `now`.
    public mutating func handle(_ reply: ELM327Reply, at now: MonotonicInstant) -> [OBDEvent] {
        guard let request = pending else { return [] }
        pending = nil
        consecutiveTimeouts = 0
        if phase != .settingUp, Self.isReset(reply) {
            // The adapter restarted by itself (its supply dipped, a fatal CAN error): its settings are gone.
            restart()
            return [.unanswered("\(request.text): \(reply.summary): the adapter reset itself, setting it up again")]
        }
        switch phase {
        case .settingUp: return handleSetup(request, reply, at: now)
        case .searching: return handleSearch(request, reply, at: now)
        case .identifying: return handleIdentification(request, reply, at: now)
        case .polling: return handlePoll(request, reply, at: now)
        }
    }

    /// No prompt came within the timeout of the command last sent.
    public mutating func handleTimeout(at now: MonotonicInstant) -> [OBDEvent] {
        guard let request = pending else { return [] }
        pending = nil
        consecutiveTimeouts += 1
        if consecutiveTimeouts >= configuration.timeoutsBeforeLost {
            let count = consecutiveTimeouts
            restart()
            return [.adapterLost("no answer from the adapter to \(count) commands in a row")]
        }
        // The command is asked again when it is next due; a poll is moved on so the others get their turn.
        if phase == .polling, let interval = interval(of: request) {
            due[request] = now.adding(seconds: interval)
        }
        return [.unanswered("\(request.text): no answer within the timeout")]
    }

    private mutating func handleSetup(_ request: Request, _ reply: ELM327Reply, at now: MonotonicInstant) -> [OBDEvent] {
        var events: [OBDEvent] = []
        if request == .command("ATZ") {
            guard case .text(let version) = reply, !version.isEmpty else {
                // Not the reset's answer (a late answer to something else, or noise): reset again.
                return [.unanswered("ATZ: \(reply.summary) is not an adapter's greeting")]
            }
            events.append(.adapter(version))
        } else if reply != .ok {
            // Clones that lack a setting answer '?'; the readers cope with spaces, echo and headers off or on.
            events.append(.unanswered("\(request.text): \(reply.summary), going on"))
        }
        setup.removeFirst()
        if setup.isEmpty {
            phase = .searching
            due = [.voltage: now]
            nextSearch = nil
            silentSince = now
            silentVolts = nil
        }
        return events
    }

    private mutating func handleSearch(_ request: Request, _ reply: ELM327Reply, at now: MonotonicInstant) -> [OBDEvent] {
        if request == .voltage {
            let parked = isParked(at: now)
            due[.voltage] = now.adding(
                seconds: parked ? configuration.parkedVoltageInterval : configuration.silentVoltageInterval)
            let events = voltageEvents(reply)
            if case .voltage(let volts) = events.first {
                if parked, volts >= IgnitionTracker.startVolts
                    || silentVolts.map({ abs(volts - $0) >= configuration.parkedWakeVolts }) == true {
                    // Something moved: the brisk pace again, and the car asked for now.
                    silentSince = now
                    nextSearch = now
                    due[.voltage] = now.adding(seconds: configuration.silentVoltageInterval)
                }
                silentVolts = volts
            }
            return events
        }
        switch OBDParameter.supported01to20.value(in: reply) {
        case .success(.supported(let pids)):
            silentSince = nil
            silentVolts = nil
            phase = .identifying
            identification = [.protocolName, .parameter(.vin), .parameter(.supportedA1toC0)]
            return [.carAnswered(supported: pids)]
        case .success:
            return []
        case .failure(let error):
            nextSearch = now.adding(
                seconds: isParked(at: now) ? configuration.parkedCarRetryInterval : configuration.carRetryInterval)
            return [.carSilent(error.description)]
        }
    }

    private mutating func handleIdentification(
        _ request: Request, _ reply: ELM327Reply, at now: MonotonicInstant
    ) -> [OBDEvent] {
        var events: [OBDEvent] = []
        identification.removeFirst()
        switch request {
        case .protocolName:
            if case .text(let name) = reply, !name.isEmpty { events.append(.protocolName(name)) }
        case .parameter(.vin):
            switch OBDParameter.vin.value(in: reply) {
            case .success(.vin(let vin)): events.append(.vin(vin))
            case .success: break
            case .failure(let error): events.append(.vinUnavailable(error.description))
            }
        case .parameter(.supportedA1toC0):
            if case .success(.supported(let pids)) = OBDParameter.supportedA1toC0.value(in: reply),
               pids.contains(OBDParameter.odometer.pid) {
                odometerSupported = true
                identification.append(.parameter(.odometer))
            } else {
                events.append(.odometerSupport(false))
            }
        case .parameter(.odometer):
            switch OBDParameter.odometer.value(in: reply) {
            case .success(.kilometres(let kilometres)):
                events.append(.odometerSupport(true))
                events.append(.reading(.odometer(kilometres: kilometres), at: now))
            case .success, .failure:
                // Announced but not answered: taken as missing, as on a car that does not announce it.
                odometerSupported = false
                events.append(.odometerSupport(false))
            }
        default:
            break
        }
        if identification.isEmpty {
            phase = .polling
            consecutiveFailures = 0
            due = [.parameter(.vehicleSpeed): now, .parameter(.engineSpeed): now, .voltage: now]
            if odometerSupported {
                due[.parameter(.odometer)] = now.adding(seconds: configuration.odometerInterval)
            }
        }
        return events
    }

    private mutating func handlePoll(_ request: Request, _ reply: ELM327Reply, at now: MonotonicInstant) -> [OBDEvent] {
        if let interval = interval(of: request) { due[request] = now.adding(seconds: interval) }
        if request == .voltage { return voltageEvents(reply) }
        guard case .parameter(let parameter) = request else { return [] }
        switch parameter.value(in: reply) {
        case .success(let value):
            consecutiveFailures = 0
            unreadableSince = nil
            guard let reading = OBDReading(value) else { return [] }
            return [.reading(reading, at: now)]
        case .failure(let error):
            if case .unexpected = error {
                // Noise or a late answer to an earlier command: nothing about the car, unless nothing else comes.
                let since = unreadableSince ?? now
                unreadableSince = since
                guard now.seconds(since: since) >= configuration.unreadableBeforeSilent else {
                    return [.unanswered(error.description)]
                }
                let seconds = Int(now.seconds(since: since).rounded())
                return goSilent(at: now, because: "\(error.description), and no answer could be read for \(seconds) s")
            }
            consecutiveFailures += 1
            guard consecutiveFailures >= configuration.failuresBeforeSilent else { return [.unanswered(error.description)] }
            return goSilent(at: now, because: error.description)
        }
    }

    /// The car counts as silent: searched for again, the voltage read meanwhile.
    private mutating func goSilent(at now: MonotonicInstant, because reason: String) -> [OBDEvent] {
        phase = .searching
        silentSince = now
        silentVolts = nil
        due = [.voltage: now.adding(seconds: configuration.silentVoltageInterval)]
        nextSearch = now.adding(seconds: configuration.carRetryInterval)
        consecutiveFailures = 0
        unreadableSince = nil
        return [.carSilent(reason)]
    }

    /// Whether `reply` says the adapter reset itself: `LV RESET`, `ERR94`, or its greeting (`ELM327 v1.5`) in
    /// answer to anything but the reset.
    static func isReset(_ reply: ELM327Reply) -> Bool {
        switch reply {
        case .error(let error): error.resetTheAdapter
        case .text(let text): text.uppercased().hasPrefix("ELM327")
        default: false
        }
    }

    private func voltageEvents(_ reply: ELM327Reply) -> [OBDEvent] {
        guard let volts = ELM327Voltage.volts(in: reply) else { return [.unanswered("ATRV: \(reply.summary)")] }
        return [.voltage(volts)]
    }

    /// How often `request` is polled.
    private func interval(of request: Request) -> Double? {
        switch request {
        case .parameter(.vehicleSpeed), .parameter(.engineSpeed): configuration.motionInterval
        case .parameter(.odometer): configuration.odometerInterval
        case .voltage: configuration.voltageInterval
        default: nil
        }
    }
}

extension ELM327Dialogue.Request {
    /// Which of two things due at the same moment goes first: the speed, then the engine, the voltage, the odometer.
    var order: Int {
        switch self {
        case .parameter(.vehicleSpeed): 0
        case .parameter(.engineSpeed): 1
        case .voltage: 2
        case .parameter(.odometer): 3
        default: 4
        }
    }
}
