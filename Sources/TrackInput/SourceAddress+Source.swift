import TrackCore

extension SourceAddress {
    /// The source that reads from this address; `configuration` applies to NMEA sources (serial and file).
    public func makeSource(configuration: NMEAReader.Configuration = .init()) -> any FixSource {
        switch self {
        case .gpsd(let host, let port):
            GPSDSource(host: host, port: port)
        case .serial(let path, let baud):
            SerialSource(path: path, baud: baud, configuration: configuration)
        case .file(let path, let speed):
            FileSource(path: path, speed: speed, configuration: configuration)
        case .auto:
            AutoSource(configuration: configuration)
        }
    }
}
