#!/usr/bin/python3
# Locks or unlocks the login keyring of the session tests/with-keyring.sh started, as a user
# locking the screen (or the keyring) and unlocking it again would: tests of what a presenter
# says when the OS keychain refuses access. Usage: keyring-lock.py lock|unlock
import os
import sys

import dbus

COLLECTION = dbus.ObjectPath('/org/freedesktop/secrets/collection/login')

bus = dbus.SessionBus()
service = bus.get_object('org.freedesktop.secrets', '/org/freedesktop/secrets')
if sys.argv[1:] == ['lock']:
    service.Lock([COLLECTION], dbus_interface='org.freedesktop.Secret.Service')
elif sys.argv[1:] == ['unlock']:
    # Unlock() would ask through a prompter window; a test session has no display, so the
    # password goes in the way gnome-keyring's own login integration gives it.
    _, session = service.OpenSession('plain', dbus.String('', variant_level=1),
                                     dbus_interface='org.freedesktop.Secret.Service')
    password = os.environ['SANDBOX_KEYRING_PASSWORD'].encode()
    secret = dbus.Struct((session, dbus.ByteArray(b''), dbus.ByteArray(password), 'text/plain'),
                         signature='oayays')
    dbus.Interface(service, 'org.gnome.keyring.InternalUnsupportedGuiltRiddenInterface') \
        .UnlockWithMasterPassword(COLLECTION, secret)
else:
    sys.exit('usage: keyring-lock.py lock|unlock')
