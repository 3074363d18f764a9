<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>sandbox::ActivationProgress</name>
    <message>
        <source>Activation steps</source>
        <translation>Aktivierungsschritte</translation>
    </message>
    <message>
        <source>Activation in progress</source>
        <translation>Aktivierung läuft</translation>
    </message>
    <message>
        <source>No activation has run in this session.</source>
        <translation>In dieser Sitzung wurde noch nichts aktiviert.</translation>
    </message>
    <message>
        <source>Activating “%1”…</source>
        <translation>„%1“ wird aktiviert …</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>ausstehend</translation>
    </message>
    <message>
        <source>running</source>
        <translation>läuft</translation>
    </message>
    <message>
        <source>succeeded</source>
        <translation>erfolgreich</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>not run</source>
        <translation>nicht ausgeführt</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>Warnung</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 – %2</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Activation of “%1” finished.</source>
        <translation>Die Aktivierung von „%1“ ist abgeschlossen.</translation>
    </message>
    <message>
        <source>Activation of “%1” failed.</source>
        <translation>Die Aktivierung von „%1“ ist fehlgeschlagen.</translation>
    </message>
    <message>
        <source>“%1” is now the active backend. Commands started from now on use it; commands already running keep the backend that started them.</source>
        <translation>„%1“ ist jetzt das aktive Backend. Ab jetzt gestartete Befehle verwenden es; bereits laufende Befehle behalten das Backend, mit dem sie gestartet wurden.</translation>
    </message>
    <message>
        <source>The steps of the next activation show here.</source>
        <translation>Hier erscheinen die Schritte der nächsten Aktivierung.</translation>
    </message>
</context>
<context>
    <name>sandbox::ActivationText</name>
    <message>
        <source>Validate settings</source>
        <translation>Einstellungen prüfen</translation>
    </message>
    <message>
        <source>Resolve secrets</source>
        <translation>Geheimnisse auflösen</translation>
    </message>
    <message>
        <source>Configure and prepare</source>
        <translation>Konfigurieren und vorbereiten</translation>
    </message>
    <message>
        <source>Probe availability</source>
        <translation>Verfügbarkeit prüfen</translation>
    </message>
    <message>
        <source>Switch the active backend</source>
        <translation>Aktives Backend umschalten</translation>
    </message>
    <message>
        <source>Save settings and selection</source>
        <translation>Einstellungen und Auswahl speichern</translation>
    </message>
    <message>
        <source>Clean up the previous backend</source>
        <translation>Vorheriges Backend aufräumen</translation>
    </message>
    <message>
        <source>Activating “%1” failed at step “%2”: %3</source>
        <translation>Die Aktivierung von „%1“ ist beim Schritt „%2“ fehlgeschlagen: %3</translation>
    </message>
    <message>
        <source>Activating “%1” failed: %2</source>
        <translation>Die Aktivierung von „%1“ ist fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>No backend is active.</source>
        <translation>Kein Backend ist aktiv.</translation>
    </message>
    <message>
        <source>“%1” is still the active backend.</source>
        <translation>„%1“ ist weiterhin das aktive Backend.</translation>
    </message>
</context>
<context>
    <name>sandbox::Autostart</name>
    <message>
        <source>Keeps the sandbox engine running in the tray</source>
        <translation>Hält die Sandbox-Engine im Systembereich der Kontrollleiste am Laufen</translation>
    </message>
    <message>
        <source>Starting at login is not supported on this system.</source>
        <translation>Der Start bei der Anmeldung wird auf diesem System nicht unterstützt.</translation>
    </message>
    <message>
        <source>could not remove the autostart entry</source>
        <translation>der Autostart-Eintrag konnte nicht entfernt werden</translation>
    </message>
    <message>
        <source>could not create the autostart folder</source>
        <translation>der Autostart-Ordner konnte nicht angelegt werden</translation>
    </message>
    <message>
        <source>could not write the autostart entry: %1</source>
        <translation>der Autostart-Eintrag konnte nicht geschrieben werden: %1</translation>
    </message>
</context>
<context>
    <name>sandbox::BackendList</name>
    <message>
        <source>Backends</source>
        <translation>Backends</translation>
    </message>
    <message>
        <source>Filesystem</source>
        <translation>Dateisystem</translation>
    </message>
    <message>
        <source>Process confinement</source>
        <translation>Prozessisolierung</translation>
    </message>
    <message>
        <source>Network</source>
        <translation>Netzwerk</translation>
    </message>
    <message>
        <source>Allowed domains</source>
        <translation>Erlaubte Domains</translation>
    </message>
    <message>
        <source>Host execution</source>
        <translation>Ausführung auf dem Host</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>Aktiv</translation>
    </message>
    <message>
        <source>Available</source>
        <translation>Verfügbar</translation>
    </message>
    <message>
        <source>Unavailable</source>
        <translation>Nicht verfügbar</translation>
    </message>
    <message>
        <source>Unavailable: %1</source>
        <translation>Nicht verfügbar: %1</translation>
    </message>
    <message>
        <source>Built-in</source>
        <translation>Integriert</translation>
    </message>
    <message>
        <source>%1
%2 · %3</source>
        <translation>%1
%2 · %3</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>%1, %2, %3</source>
        <translation>%1, %2, %3</translation>
    </message>
    <message>
        <source>Cannot be activated under the current sandbox policy: this backend does not enforce %1, which the policy restricts, and commands never run unconfined. Choose a backend that does, or change the policy.</source>
        <translation>Kann unter der aktuellen Sandbox-Richtlinie nicht aktiviert werden: Dieses Backend setzt %1 nicht durch, was die Richtlinie einschränkt, und Befehle laufen nie unbeschränkt. Wählen Sie ein Backend, das es durchsetzt, oder ändern Sie die Richtlinie.</translation>
    </message>
    <message>
        <source>Cannot be activated until its required settings are set: %1.</source>
        <translation>Kann erst aktiviert werden, wenn seine erforderlichen Einstellungen gesetzt sind: %1.</translation>
    </message>
    <message>
        <source>Not under this policy</source>
        <translation>Nicht unter dieser Richtlinie</translation>
    </message>
    <message>
        <source>Needs settings</source>
        <translation>Braucht Einstellungen</translation>
    </message>
    <message>
        <source>Credentials</source>
        <translation>Zugangsdaten</translation>
    </message>
    <message>
        <source>SSH agent</source>
        <translation>SSH-Agent</translation>
    </message>
    <message>
        <source>Upstream proxy</source>
        <translation>Vorgeschalteter Proxy</translation>
    </message>
</context>
<context>
    <name>sandbox::BackendPanel</name>
    <message>
        <source>Discard changes</source>
        <translation>Änderungen verwerfen</translation>
    </message>
    <message>
        <source>Save settings</source>
        <translation>Einstellungen speichern</translation>
    </message>
    <message>
        <source>Activate</source>
        <translation>Aktivieren</translation>
    </message>
    <message>
        <source>Source:</source>
        <translation>Herkunft:</translation>
    </message>
    <message>
        <source>State:</source>
        <translation>Zustand:</translation>
    </message>
    <message>
        <source>Platforms:</source>
        <translation>Plattformen:</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>Discard the changes to these settings</source>
        <translation>Die Änderungen an diesen Einstellungen verwerfen</translation>
    </message>
    <message>
        <source>Save the settings without activating</source>
        <translation>Die Einstellungen speichern, ohne zu aktivieren</translation>
    </message>
    <message>
        <source>Activate the selected backend</source>
        <translation>Das ausgewählte Backend aktivieren</translation>
    </message>
    <message>
        <source>Activation</source>
        <translation>Aktivierung</translation>
    </message>
    <message>
        <source>The backends could not be listed: %1</source>
        <translation>Die Backends konnten nicht aufgelistet werden: %1</translation>
    </message>
    <message>
        <source>No backend selected</source>
        <translation>Kein Backend ausgewählt</translation>
    </message>
    <message>
        <source>Built-in</source>
        <translation>Integriert</translation>
    </message>
    <message>
        <source>Active — new commands run with this backend</source>
        <translation>Aktiv – neue Befehle laufen mit diesem Backend</translation>
    </message>
    <message>
        <source>Available</source>
        <translation>Verfügbar</translation>
    </message>
    <message>
        <source>Unavailable</source>
        <translation>Nicht verfügbar</translation>
    </message>
    <message>
        <source>Not stated</source>
        <translation>Keine Angabe</translation>
    </message>
    <message>
        <source>Not stated by this backend</source>
        <translation>Von diesem Backend nicht angegeben</translation>
    </message>
    <message>
        <source>The active backend&apos;s settings are applied by activating it again.</source>
        <translation>Die Einstellungen des aktiven Backends werden übernommen, indem es erneut aktiviert wird.</translation>
    </message>
    <message>
        <source>Apply and reactivate</source>
        <translation>Übernehmen und neu aktivieren</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>Aktiv</translation>
    </message>
    <message>
        <source>Saving the settings of “%1”…</source>
        <translation>Die Einstellungen von „%1“ werden gespeichert …</translation>
    </message>
    <message>
        <source>The settings of “%1” were not saved.</source>
        <translation>Die Einstellungen von „%1“ wurden nicht gespeichert.</translation>
    </message>
    <message>
        <source>Settings of “%1” saved.</source>
        <translation>Die Einstellungen von „%1“ wurden gespeichert.</translation>
    </message>
    <message>
        <source>“%1” is now the active backend. Commands started from now on use it; commands already running keep the backend that started them.</source>
        <translation>„%1“ ist jetzt das aktive Backend. Ab jetzt gestartete Befehle verwenden es; bereits laufende Befehle behalten das Backend, mit dem sie gestartet wurden.</translation>
    </message>
    <message>
        <source>This backend is unavailable; the reason is shown above.</source>
        <translation>Dieses Backend ist nicht verfügbar; der Grund steht oben.</translation>
    </message>
    <message>
        <source>This backend says it cannot run here.</source>
        <translation>Dieses Backend meldet, dass es hier nicht laufen kann.</translation>
    </message>
    <message>
        <source>It cannot be activated until that is fixed. Once the backend reports that it can run, it shows as available here and in the tray.</source>
        <translation>Es kann erst aktiviert werden, wenn das behoben ist. Sobald das Backend meldet, dass es laufen kann, wird es hier und in der Kontrollleiste als verfügbar angezeigt.</translation>
    </message>
    <message>
        <source>Required settings are missing: %1. Fill them in below to activate this backend.</source>
        <translation>Pflichteinstellungen fehlen: %1. Füllen Sie sie unten aus, um dieses Backend zu aktivieren.</translation>
    </message>
    <message>
        <source>Refusals shown:</source>
        <translation>Gemeldete Ablehnungen:</translation>
    </message>
    <message>
        <source>Cannot be activated under the current policy</source>
        <translation>Unter der aktuellen Richtlinie nicht aktivierbar</translation>
    </message>
    <message>
        <source>This backend cannot be activated under the current sandbox policy; the reason is shown above.</source>
        <translation>Dieses Backend kann unter der aktuellen Sandbox-Richtlinie nicht aktiviert werden; der Grund steht oben.</translation>
    </message>
    <message>
        <source>What enforces the policy with this backend</source>
        <translation>Womit dieses Backend die Richtlinie durchsetzt</translation>
    </message>
    <message>
        <source>Activation failed; the cause is shown under “Activation”.</source>
        <translation>Die Aktivierung ist fehlgeschlagen; die Ursache steht unter „Aktivierung“.</translation>
    </message>
</context>
<context>
    <name>sandbox::ByteSizeEdit</name>
    <message>
        <source>Unit of %1</source>
        <translation>Einheit von %1</translation>
    </message>
    <message>
        <source>bytes</source>
        <translation>Byte</translation>
    </message>
    <message>
        <source>KiB</source>
        <translation>KiB</translation>
    </message>
    <message>
        <source>MiB</source>
        <translation>MiB</translation>
    </message>
    <message>
        <source>GiB</source>
        <translation>GiB</translation>
    </message>
    <message>
        <source>TiB</source>
        <translation>TiB</translation>
    </message>
</context>
<context>
    <name>sandbox::CredentialValues</name>
    <message>
        <source>Credentials</source>
        <translation>Zugangsdaten</translation>
    </message>
    <message>
        <source>Commands see a placeholder; the engine&apos;s proxy puts the value in, only toward the credential&apos;s hosts. A value is saved at once, where the backends&apos; secrets are kept, and never shown again.</source>
        <translation>Befehle sehen einen Platzhalter; der Proxy der Engine setzt den Wert ein, nur gegenüber den Hosts des Zugangsdatums. Ein Wert wird sofort gespeichert, dort, wo die Geheimnisse der Backends liegen, und nie wieder angezeigt.</translation>
    </message>
    <message>
        <source>Reading the credentials…</source>
        <translation>Zugangsdaten werden gelesen …</translation>
    </message>
    <message>
        <source>Whether the credentials have values could not be read: %1</source>
        <translation>Ob die Zugangsdaten Werte haben, konnte nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>The policy names no credentials. Add them to its &quot;credentials&quot; (sandboxctl policy set), then set their values here.</source>
        <translation>Die Richtlinie nennt keine Zugangsdaten. Fügen Sie sie ihren &quot;credentials&quot; hinzu (sandboxctl policy set) und setzen Sie dann hier ihre Werte.</translation>
    </message>
    <message>
        <source>value of credential %1</source>
        <translation>Wert des Zugangsdatums %1</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Speichern</translation>
    </message>
    <message>
        <source>Save the value of credential %1</source>
        <translation>Den Wert des Zugangsdatums %1 speichern</translation>
    </message>
    <message>
        <source>Not in the policy: this stored value is not used. Remove it, or add the credential to the policy.</source>
        <translation>Nicht in der Richtlinie: Dieser gespeicherte Wert wird nicht verwendet. Entfernen Sie ihn oder fügen Sie das Zugangsdatum der Richtlinie hinzu.</translation>
    </message>
    <message>
        <source>Put in only toward %1.</source>
        <translation>Nur gegenüber %1 eingesetzt.</translation>
    </message>
    <message>
        <source>Put in only toward %1; commands see a placeholder in %2.</source>
        <translation>Nur gegenüber %1 eingesetzt; Befehle sehen einen Platzhalter in %2.</translation>
    </message>
    <message>
        <source>Removing the value…</source>
        <translation>Wert wird entfernt …</translation>
    </message>
    <message>
        <source>Saving the value…</source>
        <translation>Wert wird gespeichert …</translation>
    </message>
    <message>
        <source>The value of %1 was not removed: %2</source>
        <translation>Der Wert von %1 wurde nicht entfernt: %2</translation>
    </message>
    <message>
        <source>The value of %1 was not saved: %2</source>
        <translation>Der Wert von %1 wurde nicht gespeichert: %2</translation>
    </message>
    <message>
        <source>Value removed.</source>
        <translation>Wert entfernt.</translation>
    </message>
    <message>
        <source>Value saved.</source>
        <translation>Wert gespeichert.</translation>
    </message>
</context>
<context>
    <name>sandbox::HelpMenu</name>
    <message>
        <source>Close %1</source>
        <translation>%1 schließen</translation>
    </message>
    <message>
        <source>&amp;Documentation</source>
        <translation>&amp;Dokumentation</translation>
    </message>
    <message>
        <source>&amp;Command-Line Help</source>
        <translation>Hilfe zur &amp;Befehlszeile</translation>
    </message>
    <message>
        <source>&amp;Log Location</source>
        <translation>Speicherort des &amp;Protokolls</translation>
    </message>
    <message>
        <source>L&amp;icences</source>
        <translation>L&amp;izenzen</translation>
    </message>
    <message>
        <source>&amp;About Sandbox Studio</source>
        <translation>&amp;Über Sandbox Studio</translation>
    </message>
    <message>
        <source>Documentation</source>
        <translation>Dokumentation</translation>
    </message>
    <message>
        <source>The documentation is not installed on this computer.</source>
        <translation>Die Dokumentation ist auf diesem Computer nicht installiert.</translation>
    </message>
    <message>
        <source>Command-Line Help</source>
        <translation>Hilfe zur Befehlszeile</translation>
    </message>
    <message>
        <source>Agents and scripts use the same engine through &lt;b&gt;sandboxctl&lt;/b&gt;. Its help:</source>
        <translation>Assistenten und Skripte nutzen dieselbe Engine über &lt;b&gt;sandboxctl&lt;/b&gt;. Seine Hilfe:</translation>
    </message>
    <message>
        <source>sandboxctl help</source>
        <translation>Hilfe zu sandboxctl</translation>
    </message>
    <message>
        <source>sandboxctl was not found at %1.</source>
        <translation>sandboxctl wurde unter %1 nicht gefunden.</translation>
    </message>
    <message>
        <source>Log Location</source>
        <translation>Speicherort des Protokolls</translation>
    </message>
    <message>
        <source>Sandbox Studio writes its log to:</source>
        <translation>Sandbox Studio schreibt sein Protokoll nach:</translation>
    </message>
    <message>
        <source>It is also written to standard error. The previous log is kept as %1.</source>
        <translation>Es wird auch auf die Standardfehlerausgabe geschrieben. Das vorherige Protokoll bleibt als %1 erhalten.</translation>
    </message>
    <message>
        <source>Open Folder</source>
        <translation>Ordner öffnen</translation>
    </message>
    <message>
        <source>Open the folder that holds the log</source>
        <translation>Den Ordner mit dem Protokoll öffnen</translation>
    </message>
    <message>
        <source>Licences</source>
        <translation>Lizenzen</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Sandbox Studio&lt;/b&gt; %1 is distributed under its own licence terms, as stated in its package.&lt;/p&gt;&lt;p&gt;It is built with these components, each under its own licence:&lt;/p&gt;&lt;ul&gt;&lt;li&gt;Qt %2 — GNU LGPL version 3&lt;/li&gt;&lt;li&gt;QtKeychain — BSD 3-Clause licence&lt;/li&gt;&lt;li&gt;libseccomp — GNU LGPL version 2.1&lt;/li&gt;&lt;li&gt;OpenSSL — Apache License 2.0&lt;/li&gt;&lt;/ul&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Sandbox Studio&lt;/b&gt; %1 wird unter seinen eigenen Lizenzbedingungen verbreitet, wie in seinem Paket angegeben.&lt;/p&gt;&lt;p&gt;Es ist mit diesen Komponenten gebaut, jede unter ihrer eigenen Lizenz:&lt;/p&gt;&lt;ul&gt;&lt;li&gt;Qt %2 – GNU LGPL Version 3&lt;/li&gt;&lt;li&gt;QtKeychain – BSD-3-Clause-Lizenz&lt;/li&gt;&lt;li&gt;libseccomp – GNU LGPL Version 2.1&lt;/li&gt;&lt;li&gt;OpenSSL – Apache License 2.0&lt;/li&gt;&lt;/ul&gt;</translation>
    </message>
    <message>
        <source>About Qt</source>
        <translation>Über Qt</translation>
    </message>
    <message>
        <source>About Sandbox Studio</source>
        <translation>Über Sandbox Studio</translation>
    </message>
    <message>
        <source>&lt;b&gt;Sandbox Studio&lt;/b&gt; %1&lt;br&gt;Decides how every command an AI coding agent runs is confined.</source>
        <translation>&lt;b&gt;Sandbox Studio&lt;/b&gt; %1&lt;br&gt;Legt fest, wie jeder Befehl eines KI-Programmierassistenten abgeschottet wird.</translation>
    </message>
    <message>
        <source>No program is set up to open %1, so it is shown here.</source>
        <translation>Kein Programm ist eingerichtet, um %1 zu öffnen; die Dokumentation wird daher hier angezeigt.</translation>
    </message>
</context>
<context>
    <name>sandbox::HostInteractionPresenter</name>
    <message>
        <source>Sandbox Studio needs an answer</source>
        <translation>Sandbox Studio braucht eine Antwort</translation>
    </message>
</context>
<context>
    <name>sandbox::MainWindow</name>
    <message>
        <source>Sandbox Studio</source>
        <translation>Sandbox Studio</translation>
    </message>
    <message>
        <source>This desktop has no system tray, so Sandbox Studio cannot stay in the tray: closing this window quits it, and backends are switched here in the window.</source>
        <translation>Diese Arbeitsumgebung hat keinen Systembereich in der Kontrollleiste, daher kann Sandbox Studio dort nicht weiterlaufen: Das Schließen dieses Fensters beendet das Programm, und Backends werden hier im Fenster gewechselt.</translation>
    </message>
    <message>
        <source>The new backend is active, but cleaning up after “%1” failed: %2 Sandbox Studio will try again in the background (attempt %3).</source>
        <translation>Das neue Backend ist aktiv, aber das Aufräumen nach „%1“ ist fehlgeschlagen: %2 Sandbox Studio versucht es im Hintergrund erneut (Versuch %3).</translation>
    </message>
    <message>
        <source>The new backend is active, but cleaning up after “%1” failed: %2</source>
        <translation>Das neue Backend ist aktiv, aber das Aufräumen nach „%1“ ist fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>The connection to the sandbox engine was lost: %1</source>
        <translation>Die Verbindung zur Sandbox-Engine wurde unterbrochen: %1</translation>
    </message>
    <message>
        <source>&amp;Studio</source>
        <translation>&amp;Studio</translation>
    </message>
    <message>
        <source>Start at &amp;Login</source>
        <translation>Bei der &amp;Anmeldung starten</translation>
    </message>
    <message>
        <source>Start Sandbox Studio in the background when you log in</source>
        <translation>Sandbox Studio bei der Anmeldung im Hintergrund starten</translation>
    </message>
    <message>
        <source>Starting at login is not supported on this system</source>
        <translation>Der Start bei der Anmeldung wird auf diesem System nicht unterstützt</translation>
    </message>
    <message>
        <source>Keep Running in the &amp;Tray When Closed</source>
        <translation>Nach dem Schließen in der &amp;Kontrollleiste weiterlaufen</translation>
    </message>
    <message>
        <source>Closing the window leaves Sandbox Studio running in the tray</source>
        <translation>Nach dem Schließen des Fensters läuft Sandbox Studio in der Kontrollleiste weiter</translation>
    </message>
    <message>
        <source>Not available: this desktop has no system tray</source>
        <translation>Nicht verfügbar: Diese Arbeitsumgebung hat keinen Systembereich in der Kontrollleiste</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Hilfe</translation>
    </message>
    <message>
        <source>Sandbox Studio is still running</source>
        <translation>Sandbox Studio läuft weiter</translation>
    </message>
    <message>
        <source>The engine keeps serving from the tray. Choose Quit in the tray menu to stop it.</source>
        <translation>Die Engine arbeitet in der Kontrollleiste weiter. Wählen Sie dort im Menü „Beenden“, um sie zu stoppen.</translation>
    </message>
    <message>
        <source>Could not change starting at login: %1</source>
        <translation>Der Start bei der Anmeldung konnte nicht geändert werden: %1</translation>
    </message>
    <message>
        <source>Sandbox Studio will start when you log in.</source>
        <translation>Sandbox Studio startet bei Ihrer Anmeldung.</translation>
    </message>
    <message>
        <source>Sandbox Studio will no longer start when you log in.</source>
        <translation>Sandbox Studio startet nicht mehr bei Ihrer Anmeldung.</translation>
    </message>
    <message>
        <source>No backend is active: sandboxed commands cannot start.</source>
        <translation>Kein Backend ist aktiv: Befehle in der Sandbox können nicht starten.</translation>
    </message>
    <message>
        <source>Active backend: %1</source>
        <translation>Aktives Backend: %1</translation>
    </message>
    <message>
        <source>Packs</source>
        <translation>Pakete</translation>
    </message>
    <message>
        <source>&amp;Processes</source>
        <translation>&amp;Prozesse</translation>
    </message>
    <message>
        <source>&amp;Processes (%1)</source>
        <translation>&amp;Prozesse (%1)</translation>
    </message>
    <message>
        <source>&amp;Packs…</source>
        <translation>&amp;Pakete …</translation>
    </message>
    <message>
        <source>&amp;Refusals</source>
        <translation>&amp;Ablehnungen</translation>
    </message>
    <message>
        <source>&amp;Refusals (%1)</source>
        <translation>&amp;Ablehnungen (%1)</translation>
    </message>
    <message>
        <source>Sand&amp;box</source>
        <translation>Sand&amp;box</translation>
    </message>
    <message>
        <source>Quit Sandbox Studio?</source>
        <translation>Sandbox Studio beenden?</translation>
    </message>
    <message>
        <source>Quitting Sandbox Studio stops these commands and everything they started. The programs that started them see them end.</source>
        <translation>Beim Beenden von Sandbox Studio werden diese Befehle und alles, was sie gestartet haben, gestoppt. Die Programme, die die Befehle gestartet haben, bemerken, dass sie enden.</translation>
    </message>
    <message>
        <source>Stop Commands and &amp;Quit</source>
        <translation>Befehle stoppen und &amp;beenden</translation>
    </message>
    <message>
        <source>&amp;Keep Running</source>
        <translation>&amp;Weiterlaufen lassen</translation>
    </message>
</context>
<context>
    <name>sandbox::NoticeBanner</name>
    <message>
        <source>Dismiss this message</source>
        <translation>Diese Meldung schließen</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>Schließen</translation>
    </message>
</context>
<context>
    <name>sandbox::PacksPage</name>
    <message>
        <source>Pack</source>
        <translation>Paket</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>Version</translation>
    </message>
    <message>
        <source>Publisher</source>
        <translation>Herausgeber</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Backends</source>
        <translation>Backends</translation>
    </message>
    <message>
        <source>Install from File…</source>
        <translation>Aus Datei installieren …</translation>
    </message>
    <message>
        <source>Install from Folder…</source>
        <translation>Aus Ordner installieren …</translation>
    </message>
    <message>
        <source>The packs cannot be listed: %1</source>
        <translation>Die Pakete können nicht aufgelistet werden: %1</translation>
    </message>
    <message>
        <source>Refused: %1</source>
        <translation>Abgelehnt: %1</translation>
    </message>
    <message>
        <source>Install a Pack</source>
        <translation>Ein Paket installieren</translation>
    </message>
    <message>
        <source>Pack archives (*.tar.gz *.tgz)</source>
        <translation>Paketarchive (*.tar.gz *.tgz)</translation>
    </message>
    <message>
        <source>Install a Pack from its Folder</source>
        <translation>Ein Paket aus seinem Ordner installieren</translation>
    </message>
    <message>
        <source>Installing the pack from %1…</source>
        <translation>Das Paket wird aus %1 installiert …</translation>
    </message>
    <message>
        <source>The pack was not installed: %1</source>
        <translation>Das Paket wurde nicht installiert: %1</translation>
    </message>
    <message>
        <source>Installed %1 %2.</source>
        <translation>%1 %2 wurde installiert.</translation>
    </message>
    <message>
        <source>Enabling %1…</source>
        <translation>%1 wird eingeschaltet …</translation>
    </message>
    <message>
        <source>Enabled %1.</source>
        <translation>%1 wurde eingeschaltet.</translation>
    </message>
    <message>
        <source>Disabling %1…</source>
        <translation>%1 wird ausgeschaltet …</translation>
    </message>
    <message>
        <source>Disabled %1.</source>
        <translation>%1 wurde ausgeschaltet.</translation>
    </message>
    <message>
        <source>Remove Pack</source>
        <translation>Paket entfernen</translation>
    </message>
    <message>
        <source>Remove the pack %1? Its backends go away; their settings are kept in case you install it again.</source>
        <translation>Das Paket %1 entfernen? Seine Backends verschwinden; ihre Einstellungen bleiben erhalten, falls Sie es erneut installieren.</translation>
    </message>
    <message>
        <source>Removing %1…</source>
        <translation>%1 wird entfernt …</translation>
    </message>
    <message>
        <source>Removed %1.</source>
        <translation>%1 wurde entfernt.</translation>
    </message>
    <message>
        <source>Packs add sandbox backends to Sandbox Studio. Installed packs are kept for you alone; a disabled or removed pack keeps its backends&apos; settings for when it returns.</source>
        <translation>Pakete fügen Sandbox Studio Sandbox-Backends hinzu. Installierte Pakete gelten nur für Sie; ein ausgeschaltetes oder entferntes Paket behält die Einstellungen seiner Backends für den Fall, dass es zurückkehrt.</translation>
    </message>
    <message>
        <source>Enable Pack</source>
        <comment>turn an installed, disabled pack back on (not: activate a backend)</comment>
        <translation>Paket einschalten</translation>
    </message>
    <message>
        <source>Disable Pack</source>
        <comment>turn an installed pack off without removing it</comment>
        <translation>Paket ausschalten</translation>
    </message>
    <message>
        <source>Enabled</source>
        <comment>state of a pack</comment>
        <translation>Eingeschaltet</translation>
    </message>
    <message>
        <source>Disabled</source>
        <comment>state of a pack</comment>
        <translation>Ausgeschaltet</translation>
    </message>
    <message>
        <source>Install This Pack?</source>
        <translation>Dieses Paket installieren?</translation>
    </message>
    <message>
        <source>Install the pack from %1?</source>
        <translation>Das Paket aus %1 installieren?</translation>
    </message>
    <message>
        <source>A pack is a program: Sandbox Studio loads its code into the engine, where it runs with your permissions and outside any sandbox. Install it only if you trust where it came from.</source>
        <translation>Ein Paket ist ein Programm: Sandbox Studio lädt seinen Code in die Engine, wo er mit Ihren Rechten und außerhalb jeder Sandbox läuft. Installieren Sie es nur, wenn Sie seiner Herkunft vertrauen.</translation>
    </message>
    <message>
        <source>Install and Load</source>
        <translation>Installieren und laden</translation>
    </message>
    <message>
        <source>Nothing was installed.</source>
        <translation>Es wurde nichts installiert.</translation>
    </message>
</context>
<context>
    <name>sandbox::PlaintextSecretsSetting</name>
    <message>
        <source>When no system keychain can be used, store backend secrets in a plain file that anyone who can read your files can read</source>
        <translation>Wenn kein Schlüsselbund des Systems nutzbar ist, Geheimnisse der Backends in einer Klartextdatei speichern, die jeder lesen kann, der Ihre Dateien lesen kann</translation>
    </message>
    <message>
        <source>Store Secrets in Plain Text?</source>
        <translation>Geheimnisse im Klartext speichern?</translation>
    </message>
    <message>
        <source>Secrets will be stored without the system keychain, in %1, where anyone who can read your files can read them. This applies to every program of this user from the engine&apos;s next start. Secrets already in the keychain are not copied.</source>
        <translation>Geheimnisse werden ohne den Schlüsselbund des Systems in %1 gespeichert, wo jeder sie lesen kann, der Ihre Dateien lesen kann. Das gilt für jedes Programm dieses Benutzers ab dem nächsten Start der Engine. Geheimnisse, die bereits im Schlüsselbund liegen, werden nicht kopiert.</translation>
    </message>
    <message>
        <source>Secret Storage</source>
        <translation>Speicherort der Geheimnisse</translation>
    </message>
    <message>
        <source>The secret storage choice could not be saved: %1</source>
        <translation>Die Wahl des Speicherorts der Geheimnisse konnte nicht gespeichert werden: %1</translation>
    </message>
    <message>
        <source>The secret storage choice applies from the engine&apos;s next start.</source>
        <translation>Die Wahl des Speicherorts der Geheimnisse gilt ab dem nächsten Start der Engine.</translation>
    </message>
    <message>
        <source>Warning: secrets may be stored in plain text</source>
        <translation>Warnung: Geheimnisse dürfen im Klartext gespeichert werden</translation>
    </message>
    <message>
        <source>Store Secrets in Plain Te&amp;xt (Not Recommended)</source>
        <translation>Geheimnisse im Klarte&amp;xt speichern (nicht empfohlen)</translation>
    </message>
</context>
<context>
    <name>sandbox::PolicyPanel</name>
    <message>
        <source>Apply</source>
        <translation>Übernehmen</translation>
    </message>
    <message>
        <source>Revert</source>
        <translation>Zurücksetzen</translation>
    </message>
    <message>
        <source>Readable paths</source>
        <translation>Lesbare Pfade</translation>
    </message>
    <message>
        <source>/path or ~/path</source>
        <translation>/Pfad oder ~/Pfad</translation>
    </message>
    <message>
        <source>Writable paths</source>
        <translation>Beschreibbare Pfade</translation>
    </message>
    <message>
        <source>${workspace} or /path</source>
        <translation>${workspace} oder /Pfad</translation>
    </message>
    <message>
        <source>Denied paths</source>
        <translation>Gesperrte Pfade</translation>
    </message>
    <message>
        <source>~/.ssh</source>
        <translation>~/.ssh</translation>
    </message>
    <message>
        <source>Read-only paths</source>
        <translation>Schreibgeschützte Pfade</translation>
    </message>
    <message>
        <source>${workspace}/.git/hooks</source>
        <translation>${workspace}/.git/hooks</translation>
    </message>
    <message>
        <source>Allowed domains</source>
        <translation>Erlaubte Domains</translation>
    </message>
    <message>
        <source>example.com or *.example.com:443</source>
        <translation>example.com oder *.example.com:443</translation>
    </message>
    <message>
        <source>Denied domains</source>
        <translation>Gesperrte Domains</translation>
    </message>
    <message>
        <source>tracker.example.com</source>
        <translation>tracker.example.com</translation>
    </message>
    <message>
        <source>Process confinement</source>
        <translation>Prozessisolierung</translation>
    </message>
    <message>
        <source>Isolated — sandboxed commands see only their own processes</source>
        <translation>Isoliert – Befehle in der Sandbox sehen nur ihre eigenen Prozesse</translation>
    </message>
    <message>
        <source>Shared — sandboxed commands can see host processes</source>
        <translation>Gemeinsam – Befehle in der Sandbox sehen die Prozesse des Hosts</translation>
    </message>
    <message>
        <source>Network access</source>
        <translation>Netzwerkzugriff</translation>
    </message>
    <message>
        <source>No network</source>
        <translation>Kein Netzwerk</translation>
    </message>
    <message>
        <source>Allowed domains only</source>
        <translation>Nur erlaubte Domains</translation>
    </message>
    <message>
        <source>Full network access</source>
        <translation>Voller Netzwerkzugriff</translation>
    </message>
    <message>
        <source>Host execution</source>
        <translation>Ausführung auf dem Host</translation>
    </message>
    <message>
        <source>Deny — commands never run outside the sandbox</source>
        <translation>Verweigern – Befehle laufen nie außerhalb der Sandbox</translation>
    </message>
    <message>
        <source>Ask — each request to run on the host asks you first</source>
        <translation>Nachfragen – jede Ausführung auf dem Host muss erst von Ihnen bestätigt werden</translation>
    </message>
    <message>
        <source>Allow — commands may run on the host unconfined</source>
        <translation>Erlauben – Befehle dürfen ohne Abschottung auf dem Host laufen</translation>
    </message>
    <message>
        <source>Filesystem</source>
        <translation>Dateisystem</translation>
    </message>
    <message>
        <source>Readable:</source>
        <translation>Lesbar:</translation>
    </message>
    <message>
        <source>Writable:</source>
        <translation>Beschreibbar:</translation>
    </message>
    <message>
        <source>Denied (never readable or writable):</source>
        <translation>Gesperrt (weder lesbar noch beschreibbar):</translation>
    </message>
    <message>
        <source>Read-only inside writable paths:</source>
        <translation>Schreibgeschützt innerhalb beschreibbarer Pfade:</translation>
    </message>
    <message>
        <source>Processes</source>
        <translation>Prozesse</translation>
    </message>
    <message>
        <source>Confinement:</source>
        <translation>Isolierung:</translation>
    </message>
    <message>
        <source>Network</source>
        <translation>Netzwerk</translation>
    </message>
    <message>
        <source>Mode:</source>
        <translation>Modus:</translation>
    </message>
    <message>
        <source>Allowed domains:</source>
        <translation>Erlaubte Domains:</translation>
    </message>
    <message>
        <source>Denied domains (win over allowed):</source>
        <translation>Gesperrte Domains (haben Vorrang vor erlaubten):</translation>
    </message>
    <message>
        <source>Commands on the host:</source>
        <translation>Befehle auf dem Host:</translation>
    </message>
    <message>
        <source>Apply the policy changes</source>
        <translation>Die Änderungen an der Richtlinie übernehmen</translation>
    </message>
    <message>
        <source>Revert the policy changes</source>
        <translation>Die Änderungen an der Richtlinie zurücksetzen</translation>
    </message>
    <message>
        <source>Loading the policy…</source>
        <translation>Die Richtlinie wird geladen …</translation>
    </message>
    <message>
        <source>The policy could not be loaded.</source>
        <translation>Die Richtlinie konnte nicht geladen werden.</translation>
    </message>
    <message>
        <source>Only the allowed domains are reachable, through the engine&apos;s filtering proxy; a denied entry wins over an allowed one.</source>
        <translation>Nur die erlaubten Domains sind erreichbar, über den filternden Proxy der Engine; ein gesperrter Eintrag hat Vorrang vor einem erlaubten.</translation>
    </message>
    <message>
        <source>The domain lists apply only in the “Allowed domains only” mode.</source>
        <translation>Die Domain-Listen gelten nur im Modus „Nur erlaubte Domains“.</translation>
    </message>
    <message>
        <source>Unsaved changes.</source>
        <translation>Ungespeicherte Änderungen.</translation>
    </message>
    <message>
        <source>Saving the policy…</source>
        <translation>Die Richtlinie wird gespeichert …</translation>
    </message>
    <message>
        <source>The policy was not saved.</source>
        <translation>Die Richtlinie wurde nicht gespeichert.</translation>
    </message>
    <message>
        <source>Policy saved. It applies to commands started from now on.</source>
        <translation>Richtlinie gespeichert. Sie gilt für alle ab jetzt gestarteten Befehle.</translation>
    </message>
    <message>
        <source>Changes reverted.</source>
        <translation>Änderungen zurückgesetzt.</translation>
    </message>
    <message>
        <source>The policy was not saved: fix the entries marked in red (%1).</source>
        <translation>Die Richtlinie wurde nicht gespeichert: Korrigieren Sie die rot markierten Einträge (%1).</translation>
    </message>
    <message>
        <source>The engine rejected the policy: %1</source>
        <translation>Die Engine hat die Richtlinie abgelehnt: %1</translation>
    </message>
    <message>
        <source>“%1” is writable but inside the denied “%2”: denied wins, so commands can neither write nor read it.</source>
        <translation>„%1“ ist beschreibbar, liegt aber im gesperrten Pfad „%2“: Die Sperre hat Vorrang, daher können Befehle dort weder schreiben noch lesen.</translation>
    </message>
    <message numerus="yes">
        <source>%1 (%n domain(s))</source>
        <translation>
            <numerusform>%1 (%n Domain)</numerusform>
            <numerusform>%1 (%n Domains)</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;b&gt;Network:&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;Netzwerk:&lt;/b&gt; %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Host execution:&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;Ausführung auf dem Host:&lt;/b&gt; %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Processes:&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;Prozesse:&lt;/b&gt; %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Files:&lt;/b&gt; %1 readable, %2 writable, %3 denied, %4 read-only</source>
        <translation>&lt;b&gt;Dateien:&lt;/b&gt; %1 lesbar, %2 beschreibbar, %3 gesperrt, %4 schreibgeschützt</translation>
    </message>
    <message>
        <source>Policy summary</source>
        <translation>Zusammenfassung der Richtlinie</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>&lt;b&gt;Credentials:&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;Zugangsdaten:&lt;/b&gt; %1</translation>
    </message>
    <message>
        <source>none (signing only)</source>
        <translation>keine (nur Signieren)</translation>
    </message>
    <message>
        <source>&lt;b&gt;SSH agent:&lt;/b&gt; confirm %1; keys: %2; hosts: %3</source>
        <translation>&lt;b&gt;SSH-Agent:&lt;/b&gt; Bestätigung %1; Schlüssel: %2; Hosts: %3</translation>
    </message>
    <message>
        <source>&lt;b&gt;Upstream proxy:&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;Vorgeschalteter Proxy:&lt;/b&gt; %1</translation>
    </message>
</context>
<context>
    <name>sandbox::ProcessesView</name>
    <message>
        <source>Stop</source>
        <translation>Beenden</translation>
    </message>
    <message>
        <source>Running commands</source>
        <translation>Laufende Befehle</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>Befehl</translation>
    </message>
    <message>
        <source>Backend</source>
        <translation>Backend</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>Gestartet</translation>
    </message>
    <message>
        <source>Process id</source>
        <translation>Prozess-ID</translation>
    </message>
    <message>
        <source>Stop the selected commands</source>
        <translation>Die ausgewählten Befehle beenden</translation>
    </message>
    <message>
        <source>Ends the selected commands (and everything they started)</source>
        <translation>Beendet die ausgewählten Befehle (und alles, was sie gestartet haben)</translation>
    </message>
    <message>
        <source>%1
in %2</source>
        <translation>%1
in %2</translation>
    </message>
    <message>
        <source>starting</source>
        <translation>startet</translation>
    </message>
    <message>
        <source>%1, started by %2 at %3</source>
        <translation>%1, gestartet mit %2 um %3</translation>
    </message>
    <message>
        <source>“%1” could not be stopped: %2</source>
        <translation>„%1“ konnte nicht beendet werden: %2</translation>
    </message>
    <message>
        <source>Stopped “%1”.</source>
        <translation>„%1“ wurde beendet.</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>Hinweise</translation>
    </message>
    <message>
        <source>%1

%2</source>
        <translation>%1

%2</translation>
    </message>
    <message>
        <source>%1; %2</source>
        <translation>%1; %2</translation>
    </message>
</context>
<context>
    <name>sandbox::RefusalsView</name>
    <message>
        <source>Clear</source>
        <translation>Leeren</translation>
    </message>
    <message>
        <source>What the sandbox refused</source>
        <translation>Was die Sandbox abgelehnt hat</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>Befehl</translation>
    </message>
    <message>
        <source>Refused</source>
        <translation>Abgelehnt</translation>
    </message>
    <message>
        <source>Rule</source>
        <translation>Regel</translation>
    </message>
    <message>
        <source>Backend</source>
        <translation>Backend</translation>
    </message>
    <message>
        <source>Clear the list of refusals</source>
        <translation>Die Liste der Ablehnungen leeren</translation>
    </message>
    <message>
        <source>Empties this list; the sandbox goes on refusing what the policy does not allow</source>
        <translation>Leert diese Liste; die Sandbox lehnt weiterhin ab, was die Richtlinie nicht erlaubt</translation>
    </message>
    <message>
        <source>Refusals cannot be shown: %1</source>
        <translation>Ablehnungen können nicht angezeigt werden: %1</translation>
    </message>
    <message>
        <source>(no command)</source>
        <translation>(kein Befehl)</translation>
    </message>
    <message>
        <source>the engine</source>
        <translation>die Engine</translation>
    </message>
    <message>
        <source>%1
(process %2)</source>
        <translation>%1
(Prozess %2)</translation>
    </message>
    <message>
        <source>Refused for %1: %2, by the rule %3</source>
        <translation>Abgelehnt für %1: %2, durch die Regel %3</translation>
    </message>
    <message>
        <source>Nothing has been refused. When the sandbox refuses something a command does, it shows here as it happens, with the rule that refused it.</source>
        <translation>Bisher wurde nichts abgelehnt. Wenn die Sandbox etwas ablehnt, das ein Befehl tut, erscheint es hier sofort, mit der Regel, die es abgelehnt hat.</translation>
    </message>
    <message>
        <source>1 refusal: the newest first.</source>
        <translation>1 Ablehnung: die neueste zuerst.</translation>
    </message>
    <message>
        <source>%1 refusals: the newest first.</source>
        <translation>%1 Ablehnungen: die neuesten zuerst.</translation>
    </message>
    <message>
        <source>Allow This Domain…</source>
        <translation>Diese Domain erlauben …</translation>
    </message>
    <message>
        <source>Allow the refused domain in the policy</source>
        <translation>Die abgelehnte Domain in der Richtlinie erlauben</translation>
    </message>
    <message>
        <source>Adds the domain of the selected refused connection to the policy&apos;s allowed domains</source>
        <translation>Fügt die Domain der ausgewählten abgelehnten Verbindung zu den erlaubten Domains der Richtlinie hinzu</translation>
    </message>
    <message>
        <source>&lt;b&gt;Command:&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;Befehl:&lt;/b&gt; %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Refused:&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;Abgelehnt:&lt;/b&gt; %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Rule:&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;Regel:&lt;/b&gt; %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Backend:&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;Backend:&lt;/b&gt; %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;Time:&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;Zeit:&lt;/b&gt; %1</translation>
    </message>
    <message>
        <source>The policy could not be read: %1</source>
        <translation>Die Richtlinie konnte nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Allow This Domain</source>
        <translation>Diese Domain erlauben</translation>
    </message>
    <message>
        <source>Commands started from now on may connect to this domain (any port; add “:443” for one port only, or write “*.%1” for its subdomains as well).</source>
        <translation>Ab jetzt gestartete Befehle dürfen sich mit dieser Domain verbinden (jeder Port; hängen Sie „:443“ an, um nur einen Port zu erlauben, oder schreiben Sie „*.%1“, um auch ihre Subdomains zu erlauben).</translation>
    </message>
    <message>
        <source>The policy allows no network now: it changes to “Allowed domains only”, which also allows the domains already in its list.</source>
        <translation>Die Richtlinie erlaubt derzeit kein Netzwerk: Sie wechselt zu „Nur erlaubte Domains“, womit auch die Domains erlaubt werden, die bereits in ihrer Liste stehen.</translation>
    </message>
    <message>
        <source>Domain to allow</source>
        <translation>Zu erlaubende Domain</translation>
    </message>
    <message>
        <source>Allow</source>
        <translation>Erlauben</translation>
    </message>
    <message>
        <source>“%1” was not allowed: %2</source>
        <translation>„%1“ wurde nicht erlaubt: %2</translation>
    </message>
    <message>
        <source>“%1” is allowed for commands started from now on.</source>
        <translation>„%1“ ist für ab jetzt gestartete Befehle erlaubt.</translation>
    </message>
    <message>
        <source>“%1” is allowed for commands started from now on, unless an entry of the policy&apos;s denied domains matches it (denied entries win).</source>
        <translation>„%1“ ist für ab jetzt gestartete Befehle erlaubt, es sei denn, ein Eintrag der gesperrten Domains der Richtlinie passt darauf (gesperrte Einträge haben Vorrang).</translation>
    </message>
</context>
<context>
    <name>sandbox::RunningProcesses</name>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>No commands running</source>
        <translation>Keine Befehle laufen</translation>
    </message>
    <message>
        <source>1 command running: %1</source>
        <translation>1 Befehl läuft: %1</translation>
    </message>
    <message>
        <source>%1 commands running: %2</source>
        <translation>%1 Befehle laufen: %2</translation>
    </message>
</context>
<context>
    <name>sandbox::SandboxPage</name>
    <message>
        <source>The &lt;b&gt;policy&lt;/b&gt; decides what sandboxed commands may do: files, processes, network and host execution. The &lt;b&gt;backend&lt;/b&gt; is the launcher that enforces it. They are independent: changing the backend does not change the policy. Commands already running keep the backend that started them.</source>
        <translation>Die &lt;b&gt;Richtlinie&lt;/b&gt; legt fest, was Befehle in der Sandbox dürfen: Dateien, Prozesse, Netzwerk und Ausführung auf dem Host. Das &lt;b&gt;Backend&lt;/b&gt; ist der Starter, der sie durchsetzt. Beide sind unabhängig: Ein Wechsel des Backends ändert die Richtlinie nicht. Bereits laufende Befehle behalten das Backend, mit dem sie gestartet wurden.</translation>
    </message>
    <message>
        <source>Policy</source>
        <translation>Richtlinie</translation>
    </message>
    <message>
        <source>Backend</source>
        <translation>Backend</translation>
    </message>
</context>
<context>
    <name>sandbox::SchemaForm</name>
    <message>
        <source>* Required</source>
        <translation>* Pflichtfeld</translation>
    </message>
    <message>
        <source>Secrets of this backend are stored without the system keychain, because plaintext storage was turned on.</source>
        <translation>Die Geheimnisse dieses Backends werden ohne den Schlüsselbund des Systems gespeichert, weil die Klartext-Speicherung eingeschaltet wurde.</translation>
    </message>
    <message>
        <source>Select a backend to see its settings.</source>
        <translation>Wählen Sie ein Backend, um seine Einstellungen zu sehen.</translation>
    </message>
    <message>
        <source>This backend has no settings.</source>
        <translation>Dieses Backend hat keine Einstellungen.</translation>
    </message>
    <message>
        <source>%1 *</source>
        <translation>%1 *</translation>
    </message>
    <message>
        <source>Required</source>
        <translation>Pflichtfeld</translation>
    </message>
    <message>
        <source>%1 (required)</source>
        <translation>%1 (Pflichtfeld)</translation>
    </message>
    <message>
        <source>minimum %1</source>
        <translation>mindestens %1</translation>
    </message>
    <message>
        <source>maximum %1</source>
        <translation>höchstens %1</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>Bitte wählen …</translation>
    </message>
    <message>
        <source>(not set)</source>
        <translation>(nicht gesetzt)</translation>
    </message>
</context>
<context>
    <name>sandbox::SecretField</name>
    <message>
        <source>Replace…</source>
        <translation>Ersetzen …</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
    <message>
        <source>Replace %1</source>
        <translation>%1 ersetzen</translation>
    </message>
    <message>
        <source>Remove %1</source>
        <translation>%1 entfernen</translation>
    </message>
    <message>
        <source>Keep the current %1</source>
        <translation>Den aktuellen Wert von %1 behalten</translation>
    </message>
    <message>
        <source>New value for %1</source>
        <translation>Neuer Wert für %1</translation>
    </message>
    <message>
        <source>Type the new value; leave empty to keep the current one</source>
        <translation>Neuen Wert eingeben; leer lassen, um den aktuellen zu behalten</translation>
    </message>
    <message>
        <source>Show the typed value</source>
        <translation>Eingegebenen Wert anzeigen</translation>
    </message>
    <message>
        <source>Hide the typed value</source>
        <translation>Eingegebenen Wert verbergen</translation>
    </message>
    <message>
        <source>Configured</source>
        <translation>Eingerichtet</translation>
    </message>
    <message>
        <source>Not set</source>
        <translation>Nicht gesetzt</translation>
    </message>
    <message>
        <source>Configured — will be replaced when saved</source>
        <translation>Eingerichtet – wird beim Speichern ersetzt</translation>
    </message>
    <message>
        <source>Not set — will be set when saved</source>
        <translation>Nicht gesetzt – wird beim Speichern gesetzt</translation>
    </message>
    <message>
        <source>Configured — will be removed when saved</source>
        <translation>Eingerichtet – wird beim Speichern entfernt</translation>
    </message>
    <message>
        <source>Configured — type a new value to replace it</source>
        <translation>Eingerichtet – geben Sie einen neuen Wert ein, um ihn zu ersetzen</translation>
    </message>
    <message>
        <source>Not set — type a value</source>
        <translation>Nicht gesetzt – geben Sie einen Wert ein</translation>
    </message>
</context>
<context>
    <name>sandbox::StringListEditor</name>
    <message>
        <source>Add</source>
        <translation>Hinzufügen</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>New entry for %1</source>
        <translation>Neuer Eintrag für %1</translation>
    </message>
    <message>
        <source>Add to %1</source>
        <translation>Zu %1 hinzufügen</translation>
    </message>
    <message>
        <source>Remove the selected entries from %1</source>
        <translation>Die ausgewählten Einträge aus %1 entfernen</translation>
    </message>
    <message>
        <source>“%1” was not added: %2</source>
        <translation>„%1“ wurde nicht hinzugefügt: %2</translation>
    </message>
    <message>
        <source>“%1”: %2</source>
        <translation>„%1“: %2</translation>
    </message>
</context>
<context>
    <name>sandbox::Studio</name>
    <message>
        <source>Sandbox Studio</source>
        <translation>Sandbox Studio</translation>
    </message>
    <message>
        <source>Decides how every command an AI coding agent runs is confined.</source>
        <translation>Legt fest, wie jeder Befehl eines KI-Programmierassistenten abgeschottet wird.</translation>
    </message>
    <message>
        <source>Start in the system tray without showing the window.</source>
        <translation>In der Kontrollleiste starten, ohne das Fenster zu zeigen.</translation>
    </message>
    <message>
        <source>Use &lt;dir&gt; for the engine&apos;s settings.</source>
        <translation>&lt;dir&gt; für die Einstellungen der Engine verwenden.</translation>
    </message>
    <message>
        <source>The sandbox engine could not be started: %1</source>
        <translation>Die Sandbox-Engine konnte nicht gestartet werden: %1</translation>
    </message>
</context>
<context>
    <name>sandbox::TrayController</name>
    <message>
        <source>Sandbox Studio</source>
        <translation>Sandbox Studio</translation>
    </message>
    <message>
        <source>Sandbox backend</source>
        <translation>Sandbox-Backend</translation>
    </message>
    <message>
        <source>Open Sandbox Studio</source>
        <translation>Sandbox Studio öffnen</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Beenden</translation>
    </message>
    <message>
        <source>Cleanup of “%1” failed</source>
        <translation>Aufräumen von „%1“ fehlgeschlagen</translation>
    </message>
    <message>
        <source>%1 Sandbox Studio will try again.</source>
        <translation>%1 Sandbox Studio versucht es erneut.</translation>
    </message>
    <message>
        <source>active</source>
        <translation>aktiv</translation>
    </message>
    <message>
        <source>available</source>
        <translation>verfügbar</translation>
    </message>
    <message>
        <source>unavailable</source>
        <translation>nicht verfügbar</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Switching to “%1”…</source>
        <translation>Wechsel zu „%1“ …</translation>
    </message>
    <message>
        <source>Switching failed</source>
        <translation>Wechsel fehlgeschlagen</translation>
    </message>
    <message>
        <source>“%1” could not be activated: %2</source>
        <translation>„%1“ konnte nicht aktiviert werden: %2</translation>
    </message>
    <message>
        <source>Backend switched</source>
        <translation>Backend gewechselt</translation>
    </message>
    <message>
        <source>“%1” is now active. Commands started from now on use it.</source>
        <translation>„%1“ ist jetzt aktiv. Ab jetzt gestartete Befehle verwenden es.</translation>
    </message>
    <message>
        <source>Activating “%1”: step %2 of %3, %4…</source>
        <translation>„%1“ wird aktiviert: Schritt %2 von %3, %4 …</translation>
    </message>
    <message>
        <source>Sandbox Studio — no backend active</source>
        <translation>Sandbox Studio – kein Backend aktiv</translation>
    </message>
    <message>
        <source>Sandbox Studio — active backend: %1</source>
        <translation>Sandbox Studio – aktives Backend: %1</translation>
    </message>
    <message>
        <source>activating…</source>
        <translation>wird aktiviert …</translation>
    </message>
    <message>
        <source>%1 — %2 running</source>
        <translation>%1 – %2 laufen</translation>
    </message>
    <message>
        <source>not under this policy</source>
        <translation>nicht unter dieser Richtlinie</translation>
    </message>
    <message>
        <source>needs settings</source>
        <translation>braucht Einstellungen</translation>
    </message>
</context>
</TS>
