#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// A file (or standard input) read in large chunks.
public struct InputFile: ~Copyable {
    private let descriptor: FileDescriptor
    private let ownsDescriptor: Bool
    /// The path as given, for messages.
    public let path: String
    private var buffer: UnsafeMutableRawBufferPointer

    /// Opens `path` for reading; `-` is standard input.
    public init(path: String, chunkSize: Int = 1 << 20) throws(InputFileError) {
        // Everything that can throw comes before the first stored property is set: a noncopyable value's
        // initializer that throws after a partial initialization is what Debian's Swift 6.2.3 aborts on.
        let opened: FileDescriptor
        if path == "-" {
            opened = .standardInput
        } else {
            do {
                opened = try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec])
            } catch let error as Errno {
                throw .cannotOpen(path, error)
            } catch {
                throw .cannotOpen(path, .ioError)
            }
        }
        self.path = path
        descriptor = opened
        ownsDescriptor = path != "-"
        buffer = .allocate(byteCount: chunkSize, alignment: 16)
    }

    deinit {
        buffer.deallocate()
        if ownsDescriptor { try? descriptor.close() }
    }

    /// Reads the next chunk and passes it to `body`; returns `false` at the end of the file.
    public mutating func next(_ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        let count: Int
        do {
            count = try descriptor.read(into: buffer, retryOnInterrupt: true)
        } catch let error as Errno {
            throw InputFileError.cannotRead(path, error)
        } catch {
            throw InputFileError.cannotRead(path, .ioError)
        }
        guard count > 0 else { return false }
        try body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        return true
    }
}

/// A recorded log that cannot be read.
public enum InputFileError: Error, CustomStringConvertible {
    case cannotOpen(String, Errno)
    case cannotRead(String, Errno)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let error): "cannot open \(path): \(error.description)"
        case .cannotRead(let path, let error): "cannot read \(path): \(error.description)"
        }
    }
}
