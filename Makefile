# trackd: build, install and package. See docs/install.md.
#
#   make                      release binaries (trackd, trackctl, trackd-web, trackd-stick; Swift's runtime linked
#                             in), man pages and shell completions
#   make install              into PREFIX (default /usr/local); honours DESTDIR, BINDIR, SYSCONFDIR and the *DIR below
#   make uninstall            the same files; never /var/lib/trackd (the mileage log is a tax record)
#   make deb                  trackd_VERSION_ARCH.deb (PREFIX=/usr), from a staging root with dpkg-deb
#   make deb ARCH=arm64       trackd_VERSION_arm64.deb for Debian 13 / Raspberry Pi OS on arm64, cross-built with
#                             Debian's Swift in roots that scripts/arm64 makes (root; docs/install.md)
#   make check-deb ARCH=arm64 that package checked: its dependencies in Debian 13, aarch64, glibc, a trip under qemu
#   make boot-test [ARCH=arm64] the package booted with systemd: scripts/boot-test, or scripts/boot-test-arm64 under
#                             qemu-system-aarch64 (as root, after make deb)
#   make image                trackd-VERSION-arm64.img.xz, the card image for a Raspberry Pi 3, 3+, Zero 2 W or 4
#                             (scripts/image, as root; docs/install.md, "The card image")
#   make boot-test-image      that image booted as the SD card of qemu's Raspberry Pi 3 (scripts/boot-test-image)
#   make check-units          systemd-analyze verify and security (exposure 1.5 or lower) on the units, the stick's
#                             trackd-stick@.service as an instance
#   make check-udev           udev/60-trackd-gps.rules, 60-trackd-obd.rules and 60-trackd-stick.rules through
#                             udevadm test on mock devices (root, umockdev, udev)

PREFIX      ?= /usr/local
BINDIR      ?= $(PREFIX)/bin
SYSCONFDIR  ?= /etc
DATADIR     ?= $(PREFIX)/share
MANDIR      ?= $(DATADIR)/man
# systemd and udev look in /usr/local/lib/... as well as /usr/lib/... (systemd 252: systemd-analyze unit-paths).
UNITDIR     ?= $(PREFIX)/lib/systemd/system
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
TMPFILESDIR ?= $(PREFIX)/lib/tmpfiles.d
UDEVRULESDIR ?= $(PREFIX)/lib/udev/rules.d
MODULESLOADDIR ?= $(PREFIX)/lib/modules-load.d
CATALOGDIR  ?= $(PREFIX)/lib/systemd/catalog
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
FISHCOMPDIR ?= $(DATADIR)/fish/vendor_completions.d
# zsh reads vendor-completions under /usr/share, site-functions under /usr/local/share (Debian's fpath).
ifeq ($(PREFIX),/usr)
ZSHCOMPDIR  ?= $(DATADIR)/zsh/vendor-completions
else
ZSHCOMPDIR  ?= $(DATADIR)/zsh/site-functions
endif
DESTDIR     ?=

# ARCH: the Debian architecture to build for. The host's own with the host's Swift; arm64 from an amd64 host through
# scripts/arm64 (Debian's Swift 6.2.3 in a sid root, trixie's arm64 libraries, its own build folder .build-arm64).
HOST_ARCH   := $(shell dpkg --print-architecture 2>/dev/null || uname -m)
ARCH        ?= $(HOST_ARCH)
ifeq ($(ARCH),$(HOST_ARCH))
SWIFT       ?= swift
BIN         := .build/release
STRIP       ?= strip
DEB_DIR     := .build/deb
else ifeq ($(ARCH),arm64)
BIN         := .build-arm64/static
STRIP       ?= aarch64-linux-gnu-strip
DEB_DIR     := .build/deb-arm64
else
$(error ARCH=$(ARCH): this Makefile builds for the host ($(HOST_ARCH)) or, on amd64, for arm64)
endif
# --static-swift-stdlib: the Swift runtime and FoundationEssentials go into the binaries, so that a Debian root
# without Swift runs them. --disable-local-rpath: no $ORIGIN run path in an installed binary. -z relro -z now: the
# dynamic linker resolves every symbol at start and makes its tables read-only (Debian's hardening flags).
# The toolchain's lld with -z pack-relative-relocs (DT_RELR, glibc 2.36): the start-up relocations take 12 KB
# instead of 1.5 MB, which the dynamic linker read into memory at every start; --no-export-dynamic: the program's
# own symbols are not in its dynamic symbol table (1.7 MB the dynamic linker searched at every lookup). Both lower
# what a start costs in memory; the pages relocations write are the process's own, private memory
# (docs/benchmarks.md, "Memory").
LINK_FLAGS  := -Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now \
               -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs -Xlinker --no-export-dynamic
SWIFT_BUILD ?= $(SWIFT) build -c release --static-swift-stdlib --disable-local-rpath $(LINK_FLAGS)
INSTALL     ?= install
# The driver's page's files (trackd-web --assets) and units.
WEBDIR      ?= $(DATADIR)/trackd/web
WEBFILES    := $(wildcard web/*.html web/*.js web/*.css web/*.svg web/*.png web/*.json)
WEBUNITS    := trackd-web.service trackd-web.socket trackd-web-https.socket trackd-web-admin.socket

SHARE       := .build/share
VERSION     := $(shell sed -n 's/.*static let string = "\(.*\)".*/\1/p' Sources/TrackCore/TrackVersion.swift)
DEB_ROOT    := $(DEB_DIR)/root
DEB_WORK    := $(DEB_DIR)/work

.PHONY: all binaries manuals install install-files post-install uninstall deb deb-tools check-deb boot-test image boot-test-image check-units check-udev clean-deb

all: binaries manuals

# For arm64 one release build makes the package's programs and the arm64 test bundle (scripts/test-arm64):
# scripts/arm64 release builds with -enable-testing and the Swift runtime shared, then links the four programs again
# from that build's objects with the runtime in them, into .build-arm64/static (docs/install.md, "The arm64 build").
binaries:
ifeq ($(ARCH),$(HOST_ARCH))
	$(SWIFT_BUILD) --product trackd
	$(SWIFT_BUILD) --product trackctl
	$(SWIFT_BUILD) --product trackd-web
	$(SWIFT_BUILD) --product trackd-stick
else
	scripts/arm64 release $(LINK_FLAGS)
endif

# Man pages and completions from the argument parsers (scripts/manuals builds debug binaries to ask them).
manuals:
	scripts/manuals $(SHARE) >/dev/null

install: all install-files post-install

install-files:
	@test -x $(BIN)/trackd -a -x $(BIN)/trackctl -a -x $(BIN)/trackd-web -a -x $(BIN)/trackd-stick || \
		{ echo "no release binaries in $(BIN): run make first" >&2; exit 1; }
	@test -f $(SHARE)/man/man1/trackd.1 || { echo "no man pages in $(SHARE): run make first" >&2; exit 1; }
	$(INSTALL) -d $(DESTDIR)$(BINDIR)
	$(INSTALL) -m 0755 $(BIN)/trackd $(BIN)/trackctl $(BIN)/trackd-web $(BIN)/trackd-stick $(DESTDIR)$(BINDIR)/
	$(STRIP) --strip-unneeded --remove-section=.comment --remove-section=.note \
		$(DESTDIR)$(BINDIR)/trackd $(DESTDIR)$(BINDIR)/trackctl $(DESTDIR)$(BINDIR)/trackd-web \
		$(DESTDIR)$(BINDIR)/trackd-stick
	$(INSTALL) -d $(DESTDIR)$(UNITDIR) $(DESTDIR)$(SYSUSERSDIR) $(DESTDIR)$(TMPFILESDIR) $(DESTDIR)$(UDEVRULESDIR)
	sed 's|@BINDIR@|$(BINDIR)|g' systemd/trackd.service > $(DESTDIR)$(UNITDIR)/trackd.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/trackd.service
	@# The driver's page (docs/web.md): its service, started by its sockets; its user; its files.
	sed 's|@BINDIR@|$(BINDIR)|g' systemd/trackd-web.service > $(DESTDIR)$(UNITDIR)/trackd-web.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/trackd-web.service
	$(INSTALL) -m 0644 systemd/trackd-web.socket systemd/trackd-web-https.socket systemd/trackd-web-admin.socket \
		$(DESTDIR)$(UNITDIR)/
	$(INSTALL) -m 0644 systemd/trackd-web.sysusers $(DESTDIR)$(SYSUSERSDIR)/trackd-web.conf
	$(INSTALL) -d $(DESTDIR)$(WEBDIR)
	$(INSTALL) -m 0644 $(WEBFILES) $(DESTDIR)$(WEBDIR)/
	@# The allowance rates (docs/countries.md, "The allowance"): the package's table, replaced with each version;
	@# a user's rows go in $(SYSCONFDIR)/trackd/rates.d, which is made here and never emptied.
	$(INSTALL) -m 0644 etc/rates.conf $(DESTDIR)$(DATADIR)/trackd/rates.conf
	$(INSTALL) -d $(DESTDIR)$(SYSCONFDIR)/trackd/rates.d
	@# The reports onto a USB stick (docs/install.md, "Taking the logs home"): the unit udev starts per stick.
	sed 's|@BINDIR@|$(BINDIR)|g' systemd/trackd-stick@.service > $(DESTDIR)$(UNITDIR)/trackd-stick@.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/trackd-stick@.service
	$(INSTALL) -m 0644 systemd/trackd.sysusers $(DESTDIR)$(SYSUSERSDIR)/trackd.conf
	$(INSTALL) -m 0644 systemd/trackd.tmpfiles $(DESTDIR)$(TMPFILESDIR)/trackd.conf
	$(INSTALL) -d $(DESTDIR)$(MODULESLOADDIR)
	$(INSTALL) -m 0644 systemd/trackd.modules-load $(DESTDIR)$(MODULESLOADDIR)/trackd.conf
	$(INSTALL) -m 0644 udev/60-trackd-gps.rules udev/60-trackd-obd.rules udev/60-trackd-stick.rules \
		$(DESTDIR)$(UDEVRULESDIR)/
	$(INSTALL) -d $(DESTDIR)$(CATALOGDIR)
	$(INSTALL) -m 0644 systemd/trackd.catalog $(DESTDIR)$(CATALOGDIR)/trackd.catalog
	$(INSTALL) -d $(DESTDIR)$(SYSCONFDIR)/trackd
	@# The configuration file is installed only when the repository has one, and an installed one is never
	@# overwritten: the new version goes beside it as trackd.conf.dist.
	@if [ -f etc/trackd.conf ]; then \
		if [ -e $(DESTDIR)$(SYSCONFDIR)/trackd/trackd.conf ]; then \
			echo "$(DESTDIR)$(SYSCONFDIR)/trackd/trackd.conf exists: kept; the shipped one is trackd.conf.dist beside it"; \
			$(INSTALL) -m 0644 etc/trackd.conf $(DESTDIR)$(SYSCONFDIR)/trackd/trackd.conf.dist; \
		else \
			echo "$(INSTALL) -m 0644 etc/trackd.conf $(DESTDIR)$(SYSCONFDIR)/trackd/trackd.conf"; \
			$(INSTALL) -m 0644 etc/trackd.conf $(DESTDIR)$(SYSCONFDIR)/trackd/trackd.conf; \
		fi; \
	fi
	$(INSTALL) -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR)
	@# A blank line in a help text is a paragraph for argument-parser but an error for groff: made a .Pp.
	for page in trackd trackctl trackd-web trackd-stick; do \
		sed 's/^$$/.Pp/' $(SHARE)/man/man1/$$page.1 > $(DESTDIR)$(MANDIR)/man1/$$page.1 && \
		chmod 0644 $(DESTDIR)$(MANDIR)/man1/$$page.1; done
	@# bash-completion sources these files: no #! line.
	for tool in trackd trackctl trackd-web trackd-stick; do \
		sed '1{/^#!/d}' $(SHARE)/bash-completion/completions/$$tool > $(DESTDIR)$(BASHCOMPDIR)/$$tool && \
		chmod 0644 $(DESTDIR)$(BASHCOMPDIR)/$$tool; done
	$(INSTALL) -m 0644 $(SHARE)/zsh/site-functions/_trackd $(SHARE)/zsh/site-functions/_trackctl \
		$(SHARE)/zsh/site-functions/_trackd-web $(SHARE)/zsh/site-functions/_trackd-stick $(DESTDIR)$(ZSHCOMPDIR)/
	$(INSTALL) -m 0644 $(SHARE)/fish/vendor_completions.d/trackd.fish $(SHARE)/fish/vendor_completions.d/trackctl.fish \
		$(SHARE)/fish/vendor_completions.d/trackd-web.fish $(SHARE)/fish/vendor_completions.d/trackd-stick.fish \
		$(DESTDIR)$(FISHCOMPDIR)/

# On the running system (no DESTDIR): the user, the state directory, udev and systemd told. Enabling and starting
# are left to you: systemctl enable --now trackd.
# udev: a receiver already plugged in gets its /dev/gps* names now (a "change" for the terminals). A USB stick
# already plugged in gets its copy now, but only while trackd runs (trackd-stick asks trackd for the reports) and
# after systemd knows trackd-stick@.service: 60-trackd-stick.rules acts on "add" alone (a "change" would do nothing),
# so the block devices get an "add", and only those on USB (ID_BUS=usb, as the rule asks), not the board's SD card.
post-install:
	@if [ -z "$(DESTDIR)" ]; then \
		set -x; \
		systemd-sysusers $(SYSUSERSDIR)/trackd.conf $(SYSUSERSDIR)/trackd-web.conf; \
		systemd-tmpfiles --create $(TMPFILESDIR)/trackd.conf; \
		journalctl --update-catalog || true; \
		udev=; if command -v udevadm >/dev/null && udevadm control --reload 2>/dev/null; then udev=1; \
			udevadm trigger --action=change --subsystem-match=tty || true; fi; \
		if [ -d /run/systemd/system ]; then systemctl daemon-reload; fi; \
		if [ -n "$$udev" ] && [ -d /run/systemd/system ] && systemctl -q is-active trackd.service; then \
			udevadm trigger --action=add --subsystem-match=block --property-match=ID_BUS=usb || true; fi; \
		set +x; \
		echo "installed; start trackd at every boot with: systemctl enable --now trackd"; \
	fi

uninstall:
	@if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then \
		set -x; systemctl disable --now trackd.service $(WEBUNITS) || true; \
		systemctl stop 'trackd-stick@*.service' || true; \
	elif [ -e $(DESTDIR)$(UNITDIR)/trackd.service ] && command -v systemctl >/dev/null; then \
		set -x; systemctl --root=$(or $(DESTDIR),/) disable trackd.service $(WEBUNITS) || true; fi
	rm -f $(DESTDIR)$(BINDIR)/trackd $(DESTDIR)$(BINDIR)/trackctl $(DESTDIR)$(BINDIR)/trackd-web $(DESTDIR)$(BINDIR)/trackd-stick
	rm -f $(DESTDIR)$(UNITDIR)/trackd-stick@.service
	rm -f $(DESTDIR)$(UNITDIR)/trackd.service $(DESTDIR)$(SYSUSERSDIR)/trackd.conf $(DESTDIR)$(TMPFILESDIR)/trackd.conf \
		$(DESTDIR)$(MODULESLOADDIR)/trackd.conf
	rm -f $(addprefix $(DESTDIR)$(UNITDIR)/,$(WEBUNITS)) $(DESTDIR)$(SYSUSERSDIR)/trackd-web.conf
	rm -rf $(DESTDIR)$(WEBDIR)
	rm -f $(DESTDIR)$(DATADIR)/trackd/rates.conf
	rm -f $(DESTDIR)$(UDEVRULESDIR)/60-trackd-gps.rules $(DESTDIR)$(UDEVRULESDIR)/60-trackd-obd.rules \
		$(DESTDIR)$(UDEVRULESDIR)/60-trackd-stick.rules
	rm -f $(DESTDIR)$(CATALOGDIR)/trackd.catalog
	rm -f $(DESTDIR)$(MANDIR)/man1/trackd.1 $(DESTDIR)$(MANDIR)/man1/trackctl.1 $(DESTDIR)$(MANDIR)/man1/trackd-web.1 \
		$(DESTDIR)$(MANDIR)/man1/trackd-stick.1
	rm -f $(DESTDIR)$(BASHCOMPDIR)/trackd $(DESTDIR)$(BASHCOMPDIR)/trackctl $(DESTDIR)$(BASHCOMPDIR)/trackd-web \
		$(DESTDIR)$(BASHCOMPDIR)/trackd-stick
	rm -f $(DESTDIR)$(ZSHCOMPDIR)/_trackd $(DESTDIR)$(ZSHCOMPDIR)/_trackctl $(DESTDIR)$(ZSHCOMPDIR)/_trackd-web \
		$(DESTDIR)$(ZSHCOMPDIR)/_trackd-stick
	rm -f $(DESTDIR)$(FISHCOMPDIR)/trackd.fish $(DESTDIR)$(FISHCOMPDIR)/trackctl.fish $(DESTDIR)$(FISHCOMPDIR)/trackd-web.fish \
		$(DESTDIR)$(FISHCOMPDIR)/trackd-stick.fish
	@# The configuration goes only if nobody changed it; the mileage log in /var/lib/trackd and the trackd user
	@# always stay.
	@conf=$(DESTDIR)$(SYSCONFDIR)/trackd/trackd.conf; \
	if [ -f etc/trackd.conf ] && [ -f $$conf ] && cmp -s etc/trackd.conf $$conf; then rm -f $$conf; \
	elif [ -f $$conf ]; then echo "kept $$conf (changed locally)"; fi; \
	rm -f $$conf.dist; rmdir $(DESTDIR)$(SYSCONFDIR)/trackd/rates.d 2>/dev/null || true; \
	rmdir $(DESTDIR)$(SYSCONFDIR)/trackd 2>/dev/null || true
	@if [ -z "$(DESTDIR)" ]; then \
		if command -v udevadm >/dev/null; then udevadm control --reload 2>/dev/null || true; fi; \
		if [ -d /run/systemd/system ]; then systemctl daemon-reload; fi; \
		journalctl --update-catalog 2>/dev/null || true; \
	fi
	@echo "left in place: /var/lib/trackd (the mileage log), /var/lib/trackd-web (the paired devices) and the users"

# The Debian package: the same files with PREFIX=/usr in a staging root, maintainer scripts from packaging/debian,
# Depends from dpkg-shlibdeps (the libraries the binaries link: libc6, libgps, libsqlite3, libsystemd0, ...).
deb: deb-tools all
	rm -rf $(DEB_ROOT) $(DEB_WORK)
	$(MAKE) --no-print-directory install-files DESTDIR=$(CURDIR)/$(DEB_ROOT) PREFIX=/usr SYSCONFDIR=/etc
	packaging/build-deb $(DEB_ROOT) $(DEB_WORK) "$(VERSION)" "$(ARCH)" .

deb-tools:
	@command -v dpkg-deb >/dev/null && command -v dpkg-shlibdeps >/dev/null || \
		{ echo "make deb needs dpkg-dev (apt-get install dpkg-dev)" >&2; exit 1; }
	@command -v $(firstword $(STRIP)) >/dev/null || \
		{ echo "make deb ARCH=$(ARCH) needs $(STRIP) (scripts/deps --arm64 installs it)" >&2; exit 1; }

# The card image for a Raspberry Pi (scripts/image): Debian 13 arm64, Debian's kernel and the Pi's firmware, this
# package; then booted under qemu-system-aarch64 -M raspi3b (scripts/boot-test-image). As root.
image:
	@[ "$(ARCH)" = arm64 ] || [ "$(origin ARCH)" = file ] || { echo "make image is for arm64 (ARCH=arm64 or none)" >&2; exit 1; }
	$(MAKE) --no-print-directory deb ARCH=arm64
	scripts/image --deb trackd_$(VERSION)_arm64.deb

boot-test-image:
	scripts/boot-test-image --image trackd-$(VERSION)-arm64.img

# The arm64 package checked (scripts/arm64 check-deb): apt resolves it on an empty Debian 13 arm64 system, its
# binaries are aarch64 and need glibc 2.41 at most, and under qemu they record and list a trip.
check-deb:
	@[ "$(ARCH)" = arm64 ] || { echo "make check-deb is for ARCH=arm64 (the host's package: sudo scripts/boot-test)" >&2; exit 1; }
	scripts/arm64 check-deb trackd_$(VERSION)_arm64.deb

# The package installed and booted with systemd, its service checked (docs/install.md, "The boot test"): in a
# container for the host's package, in a virtual arm64 machine for ARCH=arm64.
boot-test:
ifeq ($(ARCH),arm64)
	scripts/boot-test-arm64 --deb trackd_$(VERSION)_arm64.deb
else
	scripts/boot-test --deb trackd_$(VERSION)_$(ARCH).deb
endif

clean-deb:
	rm -rf $(DEB_DIR)

# systemd-analyze verify on every unit (trackd-stick@.service as an instance, trackd-stick@sda1.service, the way
# udev starts it), and security with the same budget for each service: an exposure of 1.5 or lower.
check-units:
	mkdir -p .build/check
	for unit in trackd trackd-web trackd-stick@; do \
		sed 's|@BINDIR@|$(CURDIR)/$(BIN)|g' systemd/$$unit.service > .build/check/$$unit.service; done
	cp systemd/trackd-web.socket systemd/trackd-web-https.socket systemd/trackd-web-admin.socket .build/check/
	MANPATH=$(CURDIR)/$(SHARE)/man systemd-analyze verify .build/check/trackd.service $(addprefix .build/check/,$(WEBUNITS)) \
		.build/check/trackd-stick@sda1.service
	systemd-analyze security --offline=true --threshold=15 .build/check/trackd.service
	@# The page's sandbox is no looser than trackd's (docs/web.md).
	systemd-analyze security --offline=true --threshold=15 .build/check/trackd-web.service
	@# The stick's mount helper meets the same budget, at 1.5 exactly: what no setting takes back from a mount helper
	@# (root, CAP_SYS_ADMIN, @mount and setuid() for mount(8), CAP_DAC_OVERRIDE for trackd's socket and a person's
	@# ext4 stick, no PrivateUsers=, UMask=0022 for files a laptop's user reads) is offset by the rest closed: a /dev
	@# of its own with the stick's node alone, no namespaces, no network. DefaultDependencies=no makes systemd-analyze
	@# score ProtectSystem=, ProtectHome= and PrivateTmp= as "not appropriate" for it: set all the same, and not
	@# counted either way. Anything more it needs must come with something else closed, not a looser budget.
	systemd-analyze security --offline=true --threshold=15 .build/check/trackd-stick@sda1.service

check-udev:
	scripts/check-udev-rules
	scripts/check-udev-rules --local
