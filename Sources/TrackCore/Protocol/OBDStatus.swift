/// The OBD-II adapter and the car behind it as `status` shows them; `status` leaves it out while trackd.conf names
/// no adapter. Ages are seconds on the monotonic clock.
public struct OBDStatus: Sendable, Codable, Hashable {
    /// How the car is doing, as far as the adapter can tell.
    public enum CarState: String, Sendable, Codable, Hashable {
        /// Not asked yet (the adapter is being set up, or is not there).
        case unknown
        /// A car answers.
        case answering
        /// No car answers (ignition off, a bus error); the adapter asks again now and then.
        case silent
    }

    /// `serial:///dev/obd0?baud=38400`, `tcp://192.168.0.10:35000`, `auto`.
    public var address: String
    /// With `auto`: the adapter's address it found, and why (`ELM327 v1.5 answered at 38400 baud on /dev/ttyUSB0`).
    public var chosen: String?
    public var reason: String?
    /// The link to the adapter (connecting, connected, lost).
    public var state: SourceStatus.State
    /// Where the adapter is, or why it is lost.
    public var detail: String
    public var car: CarState
    /// Why the car is silent, while it is.
    public var carDetail: String?
    /// The adapter's own name (`ELM327 v1.5`).
    public var adapter: String?
    /// The protocol it found (`AUTO, ISO 15765-4 (CAN 11/500)`).
    public var protocolName: String?
    /// The car's VIN, when it gives one.
    public var vin: String?
    /// The log's VIN, when the car's is another: the log belongs to another car, and this car's odometer is not
    /// taken into it.
    public var logVIN: String?
    /// Whether the car reports its odometer (PID A6); `nil` until known.
    public var odometerSupported: Bool?
    /// The car's odometer, km.
    public var odometer: Double?
    /// Engine speed, revolutions a minute.
    public var rpm: Double?
    /// The car's speed, km/h.
    public var speed: Double?
    /// The battery voltage at the socket.
    public var volts: Double?
    /// Whether the engine runs (from its speed, else the voltage); `nil` until known.
    public var engineRunning: Bool?
    /// Seconds since the last reading of the car (speed, engine speed or odometer).
    public var readingAge: Double?

    public init(address: String, state: SourceStatus.State = .connecting, detail: String = "starting",
                car: CarState = .unknown) {
        self.address = address
        self.state = state
        self.detail = detail
        self.car = car
    }

    /// Takes in what the dialogue found out; readings replace the older ones of their kind.
    public mutating func apply(_ event: OBDEvent) {
        switch event {
        case .adapter(let name): adapter = name
        case .carAnswered:
            car = .answering
            carDetail = nil
        case .protocolName(let name): protocolName = name
        case .vin(let number):
            if number != vin { logVIN = nil }
            vin = number
        case .vinUnavailable:
            vin = nil
            logVIN = nil
        case .odometerSupport(let supported):
            odometerSupported = supported
            if !supported { odometer = nil }
        case .reading(let reading, _):
            switch reading {
            case .speed(let kilometresPerHour): speed = kilometresPerHour
            case .engineSpeed(let revolutionsPerMinute): rpm = revolutionsPerMinute
            case .odometer(let kilometres): odometer = kilometres
            }
        case .voltage(let value): volts = value
        case .carSilent(let reason):
            car = .silent
            carDetail = reason
            speed = nil
            rpm = nil
        case .unanswered: break
        case .adapterLost(let reason):
            forgetCar()
            detail = reason
        }
    }

    /// The link changed to `state` (with its detail: where the adapter is, or why it is lost): connected anew, the
    /// car is asked for again; lost, nothing read before holds.
    public mutating func apply(link state: SourceStatus.State, detail: String) {
        self.state = state
        self.detail = detail
        switch state {
        case .connected:
            forgetCar()
        case .lost:
            forgetCar()
            volts = nil
        case .connecting, .ended:
            break
        }
    }

    /// What was read of the car no longer stands (the adapter was lost or reset); its identity is kept for display
    /// until the car says otherwise.
    private mutating func forgetCar() {
        car = .unknown
        carDetail = nil
        speed = nil
        rpm = nil
    }

    enum CodingKeys: String, CodingKey {
        case address, chosen, reason, state, detail, car, adapter, vin, odometer, rpm, speed, volts
        case carDetail = "car_detail"
        case logVIN = "log_vin"
        case protocolName = "protocol"
        case odometerSupported = "odometer_supported"
        case readingAge = "reading_age"
        case engineRunning = "engine_running"
    }
}
