#if canImport(Glibc)
import Glibc
#endif
import CSystemd

/// One more name for the board by mDNS, on one network interface alone, held through avahi-daemon's D-Bus API.
///
/// The card image's board is `trackd-PLATE.local` on every network (its host name, which avahi publishes) and
/// `trackd.local` on the car's Wi-Fi alone: there only one board answers to it, while on an office's network, where
/// several cars' boards meet, each keeps its own name. avahi's own tools publish an address on every interface; its
/// D-Bus API takes the interface. The name is published without a reverse record (the address's reverse is the host
/// name's) and held for as long as `hold()` runs: avahi withdraws it when this client goes. `hold()` returns only by
/// throwing: avahi went, or another host took the name.
public struct MDNSAlias: Sendable {
    public let name: String
    public let interface: String
    public let address: String

    public init(name: String, interface: String, address: String) {
        self.name = name
        self.interface = interface
        self.address = address
    }

    /// avahi's entry group states (avahi-common/defs.h): uncommitted, registering, established, collision, failure.
    private static let collision: Int32 = 3, failure: Int32 = 4
    /// AVAHI_PROTO_INET and AVAHI_PUBLISH_NO_REVERSE.
    private static let inet: Int32 = 0, noReverse: UInt32 = 16

    /// Publishes the name, calls `published` once avahi has it, and holds it, looking every `interval` seconds.
    public func hold(interval: UInt64 = 10, published: () -> Void = {}) throws(MDNSAliasError) -> Never {
        let index = if_nametoindex(interface)
        guard index != 0 else { throw .noInterface(interface, errno) }
        var bus: OpaquePointer?
        let opened = sd_bus_open_system(&bus)
        guard opened >= 0, let bus else { throw .bus("connecting to the system bus", -opened) }
        defer { sd_bus_flush_close_unref(bus) }

        let group = try call(bus, path: "/", interface: "org.freedesktop.Avahi.Server", member: "EntryGroupNew",
                             "creating an entry group") { _ in 0 }.readString(type: UInt8(ascii: "o"))
        _ = try call(bus, path: group, interface: "org.freedesktop.Avahi.EntryGroup", member: "AddAddress",
                     "adding \(name) at \(address) on \(interface)") { message in
            var values: [Int32] = [Int32(index), Self.inet]
            var flags = Self.noReverse
            for i in values.indices {
                let r = sd_bus_message_append_basic(message, CChar(UInt8(ascii: "i")), &values[i])
                if r < 0 { return r }
            }
            let r = sd_bus_message_append_basic(message, CChar(UInt8(ascii: "u")), &flags)
            if r < 0 { return r }
            for text in [name, address] {
                let r = text.withCString { sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) }
                if r < 0 { return r }
            }
            return 0
        }
        _ = try call(bus, path: group, interface: "org.freedesktop.Avahi.EntryGroup", member: "Commit",
                     "committing \(name)") { _ in 0 }
        published()
        while true {
            let state = try call(bus, path: group, interface: "org.freedesktop.Avahi.EntryGroup", member: "GetState",
                                 "asking for \(name)'s state") { _ in 0 }.readInt32()
            if state == Self.collision { throw .collision(name) }
            if state == Self.failure { throw .failed(name) }
            // Nothing to do but answer the bus (avahi's signals) until the next look.
            while sd_bus_process(bus, nil) > 0 {}
            _ = sd_bus_wait(bus, interval * 1_000_000)
        }
    }

    /// A method call to avahi-daemon with the arguments `append` adds; its reply.
    private func call(_ bus: OpaquePointer, path: String, interface: String, member: String, _ what: String,
                      append: (OpaquePointer) -> Int32) throws(MDNSAliasError) -> Reply {
        var message: OpaquePointer?
        var r = sd_bus_message_new_method_call(bus, &message, "org.freedesktop.Avahi", path, interface, member)
        guard r >= 0, let message else { throw .bus(what, -r) }
        defer { sd_bus_message_unref(message) }
        r = append(message)
        guard r >= 0 else { throw .bus(what, -r) }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        r = sd_bus_call(bus, message, 0, &error, &reply)
        guard r >= 0, let reply else {
            let said = error.message.map { String(cString: $0) } ?? error.name.map { String(cString: $0) }
            throw said.map { .avahi(what, $0) } ?? .bus(what, -r)
        }
        return Reply(message: reply, what: what)
    }

    /// A method call's reply, read once.
    private struct Reply: ~Copyable {
        let message: OpaquePointer
        let what: String

        deinit { sd_bus_message_unref(message) }

        consuming func readString(type: UInt8) throws(MDNSAliasError) -> String {
            var value: UnsafePointer<CChar>?
            let r = sd_bus_message_read_basic(message, CChar(type), &value)
            guard r > 0, let value else { throw .bus(what, r < 0 ? -r : EBADMSG) }
            return String(cString: value)
        }

        consuming func readInt32() throws(MDNSAliasError) -> Int32 {
            var value: Int32 = 0
            let r = sd_bus_message_read_basic(message, CChar(UInt8(ascii: "i")), &value)
            guard r > 0 else { throw .bus(what, r < 0 ? -r : EBADMSG) }
            return value
        }
    }
}
