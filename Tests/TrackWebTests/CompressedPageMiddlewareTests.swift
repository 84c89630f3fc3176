import Foundation
import TestSupport
import Testing
@testable import TrackWeb

struct CompressedPageMiddlewareTests {
    @Test func gzipComesBackAsItWentInAndIsSmallerForText() throws {
        let text = Array(String(repeating: "function say(text, kind) { $('message').textContent = text; }\n", count: 200).utf8)
        let packed = try #require(Gzip.compress(text))
        #expect(packed.count < text.count / 10)
        #expect(Array(packed.prefix(2)) == [0x1F, 0x8B], "the gzip format's magic bytes")
        #expect(Gzip.decompress(packed) == text)
        #expect(Gzip.decompress(Gzip.compress([]) ?? [0]) == [])
        #expect(Gzip.decompress(Array(packed.dropLast(4))) == nil, "a stream cut short")
        #expect(Gzip.decompress(Array("not gzip".utf8)) == nil)
    }

    @Test func takesGzipOnlyWhereTheBrowserSaysSo() {
        #expect(CompressedPageMiddleware.acceptsGzip(["gzip, deflate, br, zstd"]))
        #expect(CompressedPageMiddleware.acceptsGzip(["br", "gzip;q=0.5"]))
        #expect(CompressedPageMiddleware.acceptsGzip(["*"]))
        #expect(!CompressedPageMiddleware.acceptsGzip([]))
        #expect(!CompressedPageMiddleware.acceptsGzip(["identity"]))
        #expect(!CompressedPageMiddleware.acceptsGzip(["br, deflate"]))
        #expect(!CompressedPageMiddleware.acceptsGzip(["gzip;q=0"]))
        #expect(!CompressedPageMiddleware.acceptsGzip(["gzip; q=0.0, br"]))
    }

    @Test func servesPlainNamesInThePageFolderOnly() {
        #expect(CompressedPageMiddleware.fileName("/") == "index.html")
        #expect(CompressedPageMiddleware.fileName("/app.js") == "app.js")
        #expect(CompressedPageMiddleware.fileName("/first-run.js") == "first-run.js")
        for path in ["", "/.hidden", "/.git/config", "/a/b.js", "/app.js%00", "/app.js%00.html", "/x..js", "/app", "/%2Ehidden",
                     "/app.js?x=1", "/../app.js", "/ä.js"] {
            #expect(CompressedPageMiddleware.fileName(path) == nil, "\(path)")
        }
        #expect(CompressedPageMiddleware.type(of: "app.js") == "text/javascript; charset=utf-8")
        #expect(CompressedPageMiddleware.type(of: "index.html") == "text/html; charset=utf-8")
        #expect(CompressedPageMiddleware.type(of: "photo.png") == nil, "sent as it is")
    }

    @Test func compressesAFileOnceAndAgainWhenItChanges() throws {
        let folder = try TemporaryFolder()
        let files = CompressedFiles()
        try Data("body { color: red; }\n".utf8).write(to: URL(fileURLWithPath: folder.file("app.css")))
        let first = try #require(files.file(root: folder.path, name: "app.css"))
        #expect(Gzip.decompress(first.bytes) == Array("body { color: red; }\n".utf8))
        #expect(files.file(root: folder.path, name: "app.css")?.tag == first.tag)
        // A new version (another size) is compressed again, under another tag.
        try Data("body { color: blue; margin: 0; }\n".utf8).write(to: URL(fileURLWithPath: folder.file("app.css")))
        let second = try #require(files.file(root: folder.path, name: "app.css"))
        #expect(Gzip.decompress(second.bytes) == Array("body { color: blue; margin: 0; }\n".utf8))
        #expect(second.tag != first.tag)
        // A link, a folder or nothing is not a page's file.
        try FileManager.default.createSymbolicLink(atPath: folder.file("link.css"), withDestinationPath: folder.file("app.css"))
        try FileManager.default.createDirectory(atPath: folder.file("dir.css"), withIntermediateDirectories: false)
        #expect(files.file(root: folder.path, name: "link.css") == nil)
        #expect(files.file(root: folder.path, name: "dir.css") == nil)
        #expect(files.file(root: folder.path, name: "missing.css") == nil)
    }
}
