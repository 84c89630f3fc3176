import Testing
import TrackCore

struct OBDAddressTests {
    @Test func readsAutoAsTheAdapterFoundByAsking() throws {
        #expect(try OBDAddress(parsing: "auto") == .auto)
        #expect(try OBDAddress(parsing: "AUTO") == .auto)
        #expect(OBDAddress.auto.description == "auto")
        #expect(throws: SourceAddressError.self) { try OBDAddress(parsing: "automatic") }
    }

    @Test func readsSerialAndTCPAdapters() throws {
        #expect(try OBDAddress(parsing: "serial:///dev/ttyUSB0") == .serial(path: "/dev/ttyUSB0", baud: 38400))
        #expect(try OBDAddress(parsing: "serial:///dev/rfcomm0?baud=9600") == .serial(path: "/dev/rfcomm0", baud: 9600))
        #expect(try OBDAddress(parsing: "tcp://192.168.0.10:35000") == .tcp(host: "192.168.0.10", port: 35000))
        #expect(try OBDAddress(parsing: "tcp://[fe80::1]:35000") == .tcp(host: "fe80::1", port: 35000))
        #expect(OBDAddress.tcp(host: "fe80::1", port: 35000).description == "tcp://[fe80::1]:35000")
        #expect(OBDAddress.serial(path: "/dev/obd0", baud: 38400).description == "serial:///dev/obd0?baud=38400")
    }

    @Test func refusesWhatCannotBeAnAdapterAndSaysWhatWouldBe() {
        let cases: [(String, String)] = [
            ("gpsd://localhost:2947",
             "expected auto (a USB adapter, found by asking), serial:///dev/ttyUSB0?baud=38400 (USB, Bluetooth rfcomm) or tcp://HOST:PORT (Wi-Fi)"),
            ("/dev/ttyUSB0",
             "expected auto (a USB adapter, found by asking), serial:///dev/ttyUSB0?baud=38400 (USB, Bluetooth rfcomm) or tcp://HOST:PORT (Wi-Fi)"),
            ("tcp://192.168.0.10", "a Wi-Fi adapter needs a host and port: tcp://192.168.0.10:35000"),
            ("tcp://192.168.0.10:99999", "the port must be a number from 1 to 65535"),
            ("tcp://:35000", "no host before the port: tcp://192.168.0.10:35000"),
            ("serial://dev/ttyUSB0", "the device needs an absolute path: serial:///dev/ttyACM0"),
            ("serial:///dev/ttyUSB0?baud=12345", "baud must be one of 4800, 9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600"),
            ("serial:///dev/ttyUSB0?speed=2", "unknown option 'speed' (allowed: baud)"),
        ]
        for (text, hint) in cases {
            #expect(throws: SourceAddressError.malformed(text, hint)) { try OBDAddress(parsing: text) }
        }
    }
}
