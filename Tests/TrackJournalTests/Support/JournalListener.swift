import Glibc

/// A datagram socket bound at journald's path in place of a journald, in a mount namespace of its own (`isolated`):
/// what `sd_journal_sendv` sends arrives here, also an entry passed as a file descriptor.
final class JournalListener {
    /// Where libsystemd sends native journal entries (fixed in libsystemd).
    static let path = "/run/systemd/journal/socket"

    /// Why listening failed, for the test's failure message.
    enum Failure: Error, CustomStringConvertible {
        case system(String, errno: Int32)
        /// Nothing with the test's label came within the bound for a stuck test.
        case nothingArrived(label: String)

        var description: String {
            switch self {
            case .system(let call, let errno): "\(call) failed: \(String(cString: strerror(errno)))"
            case .nothingArrived(let label): "no entry from the logger \(label) arrived within 30 s"
            }
        }
    }

    /// One entry and how it came.
    struct Received {
        var entry: JournalEntry
        /// The entry came as a memfd passed with SCM_RIGHTS (too large for a datagram), not in the datagram itself.
        var throughDescriptor: Bool
    }

    /// Runs `body` with a listener, on a thread of its own in a mount namespace of its own with an empty tmpfs over
    /// `/run`: the listener takes journald's path there, so a journald that runs keeps its socket, and what `body`
    /// logs (on that thread: libsystemd resolves the path at each send) reaches the listener, not the journal.
    static func isolated(_ body: (JournalListener) throws -> Void) throws {
        try withoutActuallyEscaping(body) { body in
            let job = IsolatedJob(body: body)
            var thread = pthread_t()
            let context = Unmanaged.passRetained(job).toOpaque()
            let started = pthread_create(&thread, nil, { context in
                let job = Unmanaged<IsolatedJob>.fromOpaque(context!).takeRetainedValue()
                job.run()
                return nil
            }, context)
            guard started == 0 else {
                Unmanaged<IsolatedJob>.fromOpaque(context).release()
                throw Failure.system("pthread_create", errno: started)
            }
            pthread_join(thread, nil)
            if let error = job.error { throw error }
        }
    }

    /// The work of `isolated`, handed to its thread.
    private final class IsolatedJob {
        let body: (JournalListener) throws -> Void
        var error: (any Error)?

        init(body: @escaping (JournalListener) throws -> Void) {
            self.body = body
        }

        func run() {
            do {
                try Self.enterPrivateRun()
                try body(JournalListener())
            } catch {
                self.error = error
            }
        }

        /// This thread alone gets a mount namespace of its own (unshare implies CLONE_FS: the process's other
        /// threads keep theirs), private so that nothing mounted in it reaches the machine's, with a tmpfs over /run.
        private static func enterPrivateRun() throws(Failure) {
            // unshare(2) and mount(2) are not in Swift's Glibc module: taken from libc by name.
            typealias Unshare = @convention(c) (Int32) -> Int32
            typealias Mount = @convention(c) (UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UInt,
                                              UnsafeRawPointer?) -> Int32
            guard let unshareSymbol = dlsym(nil, "unshare"), let mountSymbol = dlsym(nil, "mount") else {
                throw .system("dlsym unshare, mount", errno: ENOSYS)
            }
            let unshare = unsafeBitCast(unshareSymbol, to: Unshare.self)
            let mount = unsafeBitCast(mountSymbol, to: Mount.self)
            let newNamespace: Int32 = 0x0002_0000           // CLONE_NEWNS
            let recursive: UInt = 0x4000, privateMount: UInt = 0x4_0000   // MS_REC, MS_PRIVATE
            guard unshare(newNamespace) == 0 else { throw .system("unshare(CLONE_NEWNS)", errno: errno) }
            guard mount(nil, "/", nil, recursive | privateMount, nil) == 0 else {
                throw .system("mount --make-rprivate /", errno: errno)
            }
            guard mount("tmpfs", "/run", "tmpfs", 0, "mode=0755") == 0 else {
                throw .system("mount tmpfs /run", errno: errno)
            }
        }
    }

    private let descriptor: Int32
    /// Binds journald's path; only on `isolated`'s thread, where `/run` is a tmpfs of its own.
    private init() throws(Failure) {
        for folder in ["/run/systemd", "/run/systemd/journal"] where access(folder, F_OK) != 0 {
            guard mkdir(folder, 0o755) == 0 else { throw .system("mkdir \(folder)", errno: errno) }
        }
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .system("socket", errno: errno) }
        var address = Self.address(Self.path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else {
            let error = errno
            close(descriptor)
            throw .system("bind \(Self.path)", errno: error)
        }
        // A bound for a stuck test, not a measure of speed.
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(descriptor)
        unlink(Self.path)
    }

    /// The next entry logged by the logger with this label (`TRACKD_LOGGER`); entries from anyone else are skipped.
    func receive(from label: String) throws -> Received {
        while true {
            guard let received = try receiveOne() else { throw Failure.nothingArrived(label: label) }
            if received.entry["TRACKD_LOGGER"] == label { return received }
        }
    }

    /// The next entry; nil when none came within the bound.
    private func receiveOne() throws -> Received? {
        let size = recv(descriptor, nil, 0, Int32(MSG_PEEK) | Int32(MSG_TRUNC))
        guard size >= 0 else {
            if errno == EAGAIN { return nil }
            throw Failure.system("recv", errno: errno)
        }
        var bytes = [UInt8](repeating: 0, count: max(size, 1))
        let control = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: MemoryLayout<cmsghdr>.alignment)
        defer { control.deallocate() }
        var message = msghdr()
        let count = bytes.withUnsafeMutableBytes { data in
            var vector = iovec(iov_base: data.baseAddress, iov_len: data.count)
            return withUnsafeMutablePointer(to: &vector) { vector in
                message.msg_iov = vector
                message.msg_iovlen = 1
                message.msg_control = control.baseAddress
                message.msg_controllen = control.count
                return recvmsg(descriptor, &message, Int32(MSG_CMSG_CLOEXEC))
            }
        }
        guard count >= 0 else { throw Failure.system("recvmsg", errno: errno) }
        let descriptors = Self.passedDescriptors(control, length: Int(message.msg_controllen))
        if let passed = descriptors.first {
            defer { descriptors.forEach { _ = close($0) } }
            return Received(entry: try JournalEntry(parsing: try Self.contents(of: passed)), throughDescriptor: true)
        }
        return Received(entry: try JournalEntry(parsing: Array(bytes.prefix(count))), throughDescriptor: false)
    }

    /// The file descriptors in SCM_RIGHTS control messages (CMSG_FIRSTHDR/CMSG_NXTHDR by hand: Swift imports no
    /// macros).
    private static func passedDescriptors(_ control: UnsafeMutableRawBufferPointer, length: Int) -> [Int32] {
        let align = MemoryLayout<Int>.size
        func aligned(_ value: Int) -> Int { (value + align - 1) & ~(align - 1) }
        let header = aligned(MemoryLayout<cmsghdr>.size)
        var offset = 0
        var descriptors: [Int32] = []
        while offset + header <= length {
            let cmsg = control.load(fromByteOffset: offset, as: cmsghdr.self)
            guard cmsg.cmsg_len >= header else { break }
            if cmsg.cmsg_level == SOL_SOCKET && cmsg.cmsg_type == Int32(SCM_RIGHTS) {
                let count = (Int(cmsg.cmsg_len) - header) / MemoryLayout<Int32>.size
                for index in 0..<count {
                    descriptors.append(control.load(fromByteOffset: offset + header + index * 4, as: Int32.self))
                }
            }
            offset += aligned(Int(cmsg.cmsg_len))
        }
        return descriptors
    }

    /// Everything in a passed file (journald reads a memfd from its start, whatever its offset).
    private static func contents(of descriptor: Int32) throws -> [UInt8] {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw Failure.system("fstat", errno: errno) }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var done = 0
        while done < bytes.count {
            let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, $0.count - done, off_t(done)) }
            guard read > 0 else { throw Failure.system("pread", errno: read < 0 ? errno : EIO) }
            done += read
        }
        return bytes
    }

    private static func address(_ path: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8.prefix($0.count - 1))) }
        return address
    }

    private static func connect(_ descriptor: Int32, _ path: String) -> Int32 {
        var address = address(path)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }
}
