#!/bin/sh
# trackd's card image: what Raspberry Pi Imager 1 has the board run in place of its normal start when its "OS
# customisation" was used: Imager writes its script to the FAT partition (/boot/firmware/firstrun.sh on this image)
# and adds `systemd.run=/boot/firstrun.sh systemd.run_success_action=reboot systemd.unit=kernel-command-line.target` to
# cmdline.txt. Imager's script is not run (it sets up Raspberry Pi OS's user, which this image has not): trackd's setup
# reads it as data (its Wi-Fi, country, time zone and SSH keys; docs/setup.md), takes Imager's words off cmdline.txt,
# and the board starts again, normally (systemd reboots it when this exits 0).
/usr/local/lib/trackd-image/setup ||
    echo "firstrun: trackd's setup applied nothing: /boot/firmware/trackd-setup-result.txt says why"
# Whatever happened above: never this script in place of the board's start again.
sed -i 's| systemd\.run=[^ ]*||; s| systemd\.run_success_action=[^ ]*||; s| systemd\.unit=kernel-command-line\.target||' \
    /boot/firmware/cmdline.txt 2>/dev/null || true
exit 0
