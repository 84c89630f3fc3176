#if canImport(Glibc)
import Glibc
#endif
import ControlSocket
import Foundation
import NIOCore
import NIOPosix
import Synchronization
import TestSupport
import Testing

/// Unix sockets bound where nobody else can reach them, set up, then put in place — with the process's umask left alone.
struct PrivateSocketBindingTests {
    @Test func theSocketIsBoundInAFolderOnlyItsOwnerEntersAndAppearsAtItsPathOnlyOnceSetUp() async throws {
        let folder = try TemporaryFolder()
        let path = folder.file("web.sock")
        let umaskBefore = try processUmask()
        let seen = Mutex<[String]>([])
        let server = try await PrivateSocketBinding.bind(at: path, { privatePath in
            var info = stat()
            let parent = String(privatePath[..<privatePath.lastIndex(of: "/")!])
            #expect(stat(parent, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o700, "the private folder is \(String(info.st_mode & 0o777, radix: 8))")
            #expect(info.st_uid == geteuid())
            #expect(parent.hasPrefix(folder.path + "/.bind"), "\(parent)")
            #expect(try processUmask() == umaskBefore, "the umask is the process's: it is not narrowed for the bind")
            return try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .bind(unixDomainSocketPath: privatePath).get()
        }, setUp: { privatePath in
            #expect(!FileManager.default.fileExists(atPath: path), "not at its path before it is set up")
            #expect(chmod(privatePath, 0o660) == 0)
            seen.withLock { $0.append("set up") }
        }, close: { server in try? await server.close() })
        #expect(seen.withLock { $0 } == ["set up"])
        var info = stat()
        #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK)
        #expect(info.st_mode & 0o777 == 0o660)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["web.sock"], "no private folder left")
        // The socket listens at its path.
        let client = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(unixDomainSocketPath: path).get()
        try await client.close()
        try await server.close()
    }

    @Test func aSetUpThatFailsClosesTheSocketAndLeavesNothing() async throws {
        struct Refused: Error {}
        let folder = try TemporaryFolder()
        let path = folder.file("control.sock")
        let closed = Mutex(false)
        await #expect(throws: Refused.self) {
            _ = try await PrivateSocketBinding.bind(at: path, { privatePath in
                try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                    .bind(unixDomainSocketPath: privatePath).get()
            }, setUp: { _ in throw Refused() }, close: { server in
                try? await server.close()
                closed.withLock { $0 = true }
            })
        }
        #expect(closed.withLock { $0 })
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func aFolderThatCannotBeWrittenSaysWhichStepFailedAndWhere() async throws {
        let failure = await #expect(throws: PrivateSocketBinding.Failure.self) {
            _ = try await PrivateSocketBinding.bind(at: "/nonexistent-trackd-folder/control.sock", { _ in 0 },
                                                    setUp: { _ in }, close: { _ in })
        }
        #expect(failure?.description == "cannot make a private folder for the socket in /nonexistent-trackd-folder: "
            + "No such file or directory")
    }

    /// The process's umask, as the kernel reports it (reading it with umask(2) would change it for a moment).
    private func processUmask() throws -> String {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        return try #require(status.split(separator: "\n").first { $0.hasPrefix("Umask:") }.map(String.init))
    }
}
