<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>ActivationTransaction</name>
    <message>
        <source>This backend has no secret settings.</source>
        <translation>Dieses Backend hat keine geheimen Einstellungen.</translation>
    </message>
    <message>
        <source>An earlier step failed.</source>
        <translation>Ein früherer Schritt ist fehlgeschlagen.</translation>
    </message>
    <message>
        <source>The engine is shutting down; nothing was activated.</source>
        <translation>Die Engine wird beendet; nichts wurde aktiviert.</translation>
    </message>
    <message>
        <source>No backend %1 is registered.</source>
        <translation>Kein Backend %1 ist registriert.</translation>
    </message>
    <message>
        <source>The pack &quot;%1&quot; that provides this backend is disabled. Enable the pack first.</source>
        <translation>Das Paket „%1“, das dieses Backend bereitstellt, ist ausgeschaltet. Schalten Sie zuerst das Paket ein.</translation>
    </message>
    <message>
        <source>The secret updates are not valid.</source>
        <translation>Die Änderungen an den Geheimnissen sind ungültig.</translation>
    </message>
    <message>
        <source>not a secret field of this backend</source>
        <translation>kein geheimes Feld dieses Backends</translation>
    </message>
    <message>
        <source>given more than once</source>
        <translation>mehr als einmal angegeben</translation>
    </message>
    <message>
        <source>Required secrets are not set.</source>
        <translation>Erforderliche Geheimnisse sind nicht gesetzt.</translation>
    </message>
    <message>
        <source>%1 is required: enter a value.</source>
        <translation>%1 ist erforderlich: Geben Sie einen Wert ein.</translation>
    </message>
    <message>
        <source>The backend asked a question that cannot be shown, so it was refused: %1</source>
        <translation>Das Backend hat eine Frage gestellt, die nicht angezeigt werden kann; sie wurde daher abgelehnt: %1</translation>
    </message>
    <message>
        <source>The backend&apos;s availability probe ended without a result.</source>
        <translation>Die Verfügbarkeitsprüfung des Backends endete ohne Ergebnis.</translation>
    </message>
    <message>
        <source>The backend reports that it is not available.</source>
        <translation>Das Backend meldet, dass es nicht verfügbar ist.</translation>
    </message>
    <message>
        <source>The sandbox policy is not known, so no backend is made active.</source>
        <translation>Die Sandbox-Richtlinie ist nicht bekannt, daher wird kein Backend aktiv.</translation>
    </message>
    <message>
        <source>The backend reported an availability change while it was being probed, so it was not made active. Activate it again.</source>
        <translation>Das Backend hat während der Prüfung eine Änderung seiner Verfügbarkeit gemeldet und wurde daher nicht aktiv. Aktivieren Sie es erneut.</translation>
    </message>
    <message>
        <source>No backend was active before.</source>
        <translation>Zuvor war kein Backend aktiv.</translation>
    </message>
    <message>
        <source>The backend keeps its launcher instance.</source>
        <translation>Das Backend behält seine Launcher-Instanz.</translation>
    </message>
    <message>
        <source>Could not release the resources of %1: %2. Retrying in the background.</source>
        <translation>Die Ressourcen von %1 konnten nicht freigegeben werden: %2. Es wird im Hintergrund erneut versucht.</translation>
    </message>
</context>
<context>
    <name>BackendRegistry</name>
    <message>
        <source>not a valid backend reference</source>
        <translation>keine gültige Backend-Referenz</translation>
    </message>
    <message>
        <source>no launcher was given</source>
        <translation>es wurde kein Launcher übergeben</translation>
    </message>
    <message>
        <source>the launcher&apos;s kind &quot;%1&quot; does not match the reference</source>
        <translation>die Art „%1“ des Launchers passt nicht zur Referenz</translation>
    </message>
    <message>
        <source>the name of its source must be short plain text</source>
        <translation>der Name seiner Quelle muss kurzer reiner Text sein</translation>
    </message>
    <message>
        <source>Not checked yet.</source>
        <translation>Noch nicht geprüft.</translation>
    </message>
    <message>
        <source>a backend with this reference is already registered</source>
        <translation>ein Backend mit dieser Referenz ist bereits registriert</translation>
    </message>
    <message>
        <source>The backend&apos;s availability reason is not shown: it is not plain text or is too long.</source>
        <translation>Der Grund für die Verfügbarkeit des Backends wird nicht angezeigt: Er ist kein reiner Text oder zu lang.</translation>
    </message>
    <message>
        <source>No backend %1 is registered.</source>
        <translation>Kein Backend %1 ist registriert.</translation>
    </message>
    <message>
        <source>The backend&apos;s provider did not create a launcher of kind &quot;%1&quot;.</source>
        <translation>Der Anbieter des Backends hat keinen Launcher der Art „%1“ erzeugt.</translation>
    </message>
</context>
<context>
    <name>BaselineCache</name>
    <message>
        <source>usable</source>
        <translation>verwendbar</translation>
    </message>
    <message>
        <source>no baseline yet</source>
        <translation>noch keine Baseline</translation>
    </message>
    <message>
        <source>leased</source>
        <translation>verliehen</translation>
    </message>
    <message>
        <source>invalid manifest</source>
        <translation>ungültiges Manifest</translation>
    </message>
    <message>
        <source>epoch mismatch</source>
        <translation>Epoche stimmt nicht überein</translation>
    </message>
    <message>
        <source>digest mismatch</source>
        <translation>Prüfsumme stimmt nicht überein</translation>
    </message>
    <message>
        <source>cannot create %1</source>
        <translation>%1 kann nicht angelegt werden</translation>
    </message>
    <message>
        <source>%1 cannot be read</source>
        <translation>%1 kann nicht gelesen werden</translation>
    </message>
    <message>
        <source>made at epoch %1, this build restores epoch %2</source>
        <translation>in Epoche %1 erstellt, dieser Build stellt Epoche %2 wieder her</translation>
    </message>
    <message>
        <source>made for another machine, toolchain or user</source>
        <translation>für eine andere Maschine, Toolchain oder einen anderen Benutzer erstellt</translation>
    </message>
    <message>
        <source>the artifact is missing</source>
        <translation>das Artefakt fehlt</translation>
    </message>
    <message>
        <source>the artifact&apos;s sha256 is not the manifest&apos;s</source>
        <translation>die sha256-Prüfsumme des Artefakts ist nicht die des Manifests</translation>
    </message>
    <message>
        <source>cannot create %1: %2</source>
        <translation>%1 kann nicht angelegt werden: %2</translation>
    </message>
    <message>
        <source>the saved state %1 is empty or unreadable</source>
        <translation>der gespeicherte Zustand %1 ist leer oder nicht lesbar</translation>
    </message>
    <message>
        <source>cannot write the baseline in %1</source>
        <translation>die Baseline in %1 kann nicht geschrieben werden</translation>
    </message>
</context>
<context>
    <name>BaselineLease</name>
    <message>
        <source>cannot write the lease in %1</source>
        <translation>die Leihe in %1 kann nicht geschrieben werden</translation>
    </message>
    <message>
        <source>cannot take the lease in %1: %2</source>
        <translation>die Leihe in %1 kann nicht übernommen werden: %2</translation>
    </message>
    <message>
        <source>baseline leased by running process %1</source>
        <translation>Baseline an den laufenden Prozess %1 verliehen</translation>
    </message>
    <message>
        <source>the lease in %1 changed hands while it was being reclaimed</source>
        <translation>die Leihe in %1 hat während der Rückforderung den Besitzer gewechselt</translation>
    </message>
</context>
<context>
    <name>CleanupScheduler</name>
    <message numerus="yes">
        <source>Deferred until the %n process(es) it still runs have ended.</source>
        <translation>
            <numerusform>Zurückgestellt, bis der %n Prozess, den es noch ausführt, beendet ist.</numerusform>
            <numerusform>Zurückgestellt, bis die %n Prozesse, die es noch ausführt, beendet sind.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Confinement</name>
    <message>
        <source>This backend does not enforce %1, which the sandbox policy restricts, so it does not run commands under it (commands never run unconfined). Choose a backend that does, or change the policy.</source>
        <translation>Dieses Backend setzt %1 nicht durch, was die Sandbox-Richtlinie einschränkt; daher führt es darunter keine Befehle aus (Befehle laufen nie unbeschränkt). Wählen Sie ein Backend, das es durchsetzt, oder ändern Sie die Richtlinie.</translation>
    </message>
    <message>
        <source>the filesystem rules</source>
        <translation>die Dateisystemregeln</translation>
    </message>
    <message>
        <source>the network mode</source>
        <translation>den Netzwerkmodus</translation>
    </message>
    <message>
        <source>the allowed domains</source>
        <translation>die erlaubten Domains</translation>
    </message>
    <message>
        <source>host execution</source>
        <translation>die Ausführung auf dem Host</translation>
    </message>
    <message>
        <source>process confinement</source>
        <translation>die Prozessbeschränkung</translation>
    </message>
    <message>
        <source>credential injection</source>
        <translation>Einsetzen von Zugangsdaten</translation>
    </message>
    <message>
        <source>the filtering SSH agent</source>
        <translation>der filternde SSH-Agent</translation>
    </message>
    <message>
        <source>the upstream proxy</source>
        <translation>der vorgeschaltete Proxy</translation>
    </message>
</context>
<context>
    <name>ContainerLeftovers</name>
    <message>
        <source>the container %1 could not be removed: %2</source>
        <translation>der Container %1 konnte nicht entfernt werden: %2</translation>
    </message>
</context>
<context>
    <name>ContainerPool</name>
    <message>
        <source>no filtering proxy is available to this backend</source>
        <translation>diesem Backend steht kein Filter-Proxy zur Verfügung</translation>
    </message>
    <message>
        <source>the runtime refused to create the container: %1</source>
        <translation>die Laufzeitumgebung hat das Anlegen des Containers verweigert: %1</translation>
    </message>
    <message>
        <source>the runtime created a container but did not name it</source>
        <translation>die Laufzeitumgebung hat einen Container angelegt, ihn aber nicht benannt</translation>
    </message>
    <message>
        <source>the runtime could not start the container: %1</source>
        <translation>die Laufzeitumgebung konnte den Container nicht starten: %1</translation>
    </message>
    <message>
        <source>the container&apos;s proxy bridge did not start: %1</source>
        <translation>die Proxy-Brücke des Containers ist nicht gestartet: %1</translation>
    </message>
    <message>
        <source>exit status %1</source>
        <translation>Exit-Status %1</translation>
    </message>
    <message>
        <source>did not finish in time</source>
        <translation>wurde nicht rechtzeitig fertig</translation>
    </message>
    <message>
        <source>containers could not be removed: %1</source>
        <translation>Container konnten nicht entfernt werden: %1</translation>
    </message>
    <message>
        <source>no folder for the commands&apos; status channels</source>
        <translation>kein Ordner für die Statuskanäle der Befehle</translation>
    </message>
    <message>
        <source>cannot create this folder</source>
        <translation>dieser Ordner kann nicht angelegt werden</translation>
    </message>
    <message>
        <source>the runtime made the container under the OCI runtime %1, not %2 as when the backend was activated; activate it again</source>
        <translation>die Laufzeitumgebung hat den Container unter der OCI-Laufzeit %1 erzeugt, nicht unter %2 wie bei der Aktivierung des Backends; aktivieren Sie es erneut</translation>
    </message>
</context>
<context>
    <name>ContainerSpec</name>
    <message>
        <source>The path %1 contains &apos;:&apos; or &apos;,&apos; and cannot be mounted into a container.</source>
        <translation>Der Pfad %1 enthält „:“ oder „,“ und kann nicht in einen Container eingehängt werden.</translation>
    </message>
    <message>
        <source>%1 lies inside the denied path %2, so it is never mounted into a container.</source>
        <translation>%1 liegt im verbotenen Pfad %2 und wird daher nie in einen Container eingehängt.</translation>
    </message>
    <message>
        <source>The denied path %1 is inside %2, which would be mounted; the Docker backend can hide denied folders there but not files. Run the command from another folder.</source>
        <translation>Der verbotene Pfad %1 liegt in %2, das eingehängt würde; das Docker-Backend kann dort verbotene Ordner verbergen, aber keine Dateien. Führen Sie den Befehl aus einem anderen Ordner aus.</translation>
    </message>
    <message>
        <source>The folder %1 that covers denied folders is not empty.</source>
        <translation>Der Ordner %1, der verbotene Ordner verdeckt, ist nicht leer.</translation>
    </message>
    <message>
        <source>The engine&apos;s helper (sandbox-init) was not found, so no command runs under the write gate that keeps repositories&apos; control files as they are. Reinstall Sandbox Studio.</source>
        <translation>Das Hilfsprogramm der Engine (sandbox-init) wurde nicht gefunden, daher läuft kein Befehl unter dem Schreibtor, das die Steuerdateien von Repositorys unverändert hält. Installieren Sie Sandbox Studio neu.</translation>
    </message>
    <message>
        <source>SSH connections to the agent&apos;s hosts go through the filtering proxy, which serves the network mode &quot;allowlist&quot; only; set that mode (with or without allowed domains). Nothing was run.</source>
        <translation>SSH-Verbindungen zu den Hosts des Agenten laufen über den Filter-Proxy, der nur den Netzwerkmodus &quot;allowlist&quot; bedient; stellen Sie diesen Modus ein (mit oder ohne erlaubte Domains). Es wurde nichts ausgeführt.</translation>
    </message>
    <message>
        <source>%1 lies inside the denied path %2, so it is never sent to a container.</source>
        <translation>%1 liegt innerhalb des verbotenen Pfads %2 und wird daher nie an einen Container gesendet.</translation>
    </message>
    <message>
        <source>The policy&apos;s network mode is &quot;allowlist&quot;, which the Docker backend does not enforce on an engine reached over TLS (the endpoint setting: %1): the engine&apos;s filtering proxy, the container&apos;s only way out under that mode, is forwarded to engines reached over SSH (ssh://) only. Set the network mode to &quot;none&quot; (or &quot;full&quot;), or use an ssh:// or a local endpoint (unix://). Nothing was run.</source>
        <translation>Der Netzwerkmodus der Richtlinie ist „allowlist“, den das Docker-Backend bei einer über TLS erreichten Engine nicht durchsetzt (die Endpunkt-Einstellung: %1): Der Filter-Proxy der Engine, in diesem Modus der einzige Weg aus dem Container, wird nur an über SSH (ssh://) erreichte Engines weitergeleitet. Setzen Sie den Netzwerkmodus auf „none“ (oder „full“) oder verwenden Sie einen ssh://- oder einen lokalen Endpunkt (unix://). Es wurde nichts ausgeführt.</translation>
    </message>
    <message>
        <source>The policy&apos;s credentials need the engine&apos;s certificate authority inside the container, which the Docker backend does not put there on an engine reached over SSH or TLS (the endpoint setting: %1). Use a local endpoint (unix://). Nothing was run.</source>
        <translation>Die Zugangsdaten der Richtlinie benötigen die Zertifizierungsstelle der Engine im Container, die das Docker-Backend bei einer über SSH oder TLS erreichten Engine nicht dorthin bringt (die Endpunkt-Einstellung: %1). Verwenden Sie einen lokalen Endpunkt (unix://). Es wurde nichts ausgeführt.</translation>
    </message>
    <message>
        <source>The policy&apos;s SSH agent is served by the engine on this computer and is not forwarded to an engine reached over SSH or TLS (the endpoint setting: %1). Use a local endpoint (unix://). Nothing was run.</source>
        <translation>Der SSH-Agent der Richtlinie wird von der Engine auf diesem Computer bereitgestellt und nicht an eine über SSH oder TLS erreichte Engine weitergeleitet (die Endpunkt-Einstellung: %1). Verwenden Sie einen lokalen Endpunkt (unix://). Es wurde nichts ausgeführt.</translation>
    </message>
</context>
<context>
    <name>DockerApi</name>
    <message>
        <source>HTTP status %1</source>
        <translation>HTTP-Status %1</translation>
    </message>
    <message>
        <source>the socket path is too long</source>
        <translation>der Socket-Pfad ist zu lang</translation>
    </message>
    <message>
        <source>cannot create a socket: %1</source>
        <translation>es kann kein Socket angelegt werden: %1</translation>
    </message>
    <message>
        <source>no Docker-compatible runtime answers at %1 (%2)</source>
        <translation>unter %1 antwortet keine Docker-kompatible Laufzeitumgebung (%2)</translation>
    </message>
    <message>
        <source>no Docker-compatible runtime answered at %1 in time</source>
        <translation>unter %1 hat keine Docker-kompatible Laufzeitumgebung rechtzeitig geantwortet</translation>
    </message>
    <message>
        <source>the runtime at %1 did not take the request</source>
        <translation>die Laufzeitumgebung unter %1 hat die Anfrage nicht angenommen</translation>
    </message>
    <message>
        <source>the runtime at %1 did not answer %2 %3 within %4 s</source>
        <translation>die Laufzeitumgebung unter %1 hat %2 %3 nicht innerhalb von %4 s beantwortet</translation>
    </message>
    <message>
        <source>the runtime at %1 sent no valid HTTP response</source>
        <translation>die Laufzeitumgebung unter %1 hat keine gültige HTTP-Antwort gesendet</translation>
    </message>
    <message>
        <source>the runtime did not take the exec start request</source>
        <translation>die Laufzeitumgebung hat die Anfrage zum Start des Exec nicht angenommen</translation>
    </message>
    <message>
        <source>the runtime refused to start the command: %1</source>
        <translation>die Laufzeitumgebung hat den Start des Befehls verweigert: %1</translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>the runtime at %1 did not take the archive</source>
        <translation>die Laufzeitumgebung unter %1 hat das Archiv nicht angenommen</translation>
    </message>
    <message>
        <source>the runtime at %1 sent a malformed body</source>
        <translation>die Laufzeitumgebung unter %1 hat einen fehlerhaften Nachrichteninhalt gesendet</translation>
    </message>
    <message>
        <source>the archive was not taken in whole</source>
        <translation>das Archiv wurde nicht vollständig angenommen</translation>
    </message>
    <message>
        <source>the runtime at %1 did not send the archive within %2 s</source>
        <translation>die Laufzeitumgebung unter %1 hat das Archiv nicht innerhalb von %2 s gesendet</translation>
    </message>
    <message>
        <source>reading the archive from %1 failed: %2</source>
        <translation>das Lesen des Archivs von %1 ist fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>the runtime at %1 ended the archive early</source>
        <translation>die Laufzeitumgebung unter %1 hat das Archiv vorzeitig beendet</translation>
    </message>
</context>
<context>
    <name>DockerLauncher</name>
    <message>
        <source>Docker</source>
        <translation>Docker</translation>
    </message>
    <message>
        <source>Runs each command in a container of a Docker-compatible runtime (Docker Engine, or Podman&apos;s Docker-compatible service), one warm container per workspace.</source>
        <translation>Führt jeden Befehl in einem Container einer Docker-kompatiblen Laufzeitumgebung aus (Docker Engine oder der Docker-kompatible Dienst von Podman), ein warmer Container pro Arbeitsbereich.</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation>Endpunkt</translation>
    </message>
    <message>
        <source>Image</source>
        <translation>Image</translation>
    </message>
    <message>
        <source>Memory limit (MB)</source>
        <translation>Speichergrenze (MB)</translation>
    </message>
    <message>
        <source>0 means no limit.</source>
        <translation>0 bedeutet keine Grenze.</translation>
    </message>
    <message>
        <source>CPUs</source>
        <translation>CPUs</translation>
    </message>
    <message>
        <source>Process limit</source>
        <translation>Prozessgrenze</translation>
    </message>
    <message>
        <source>The most processes a container may hold at once.</source>
        <translation>Die meisten Prozesse, die ein Container gleichzeitig enthalten darf.</translation>
    </message>
    <message>
        <source>Network none: the container has no network interface but loopback. Allowlist: no network interface but loopback either; the container&apos;s first process is the engine&apos;s proxy bridge (sandbox-init, mounted read-only from the host), which relays 127.0.0.1:3128 inside the container to a filtering proxy socket of that container&apos;s own, in a host folder holding nothing else that is mounted read-only. Full: the runtime&apos;s default network.</source>
        <translation>Netzwerk none: Der Container hat keine Netzwerkschnittstelle außer Loopback. Allowlist: ebenfalls keine Netzwerkschnittstelle außer Loopback; der erste Prozess des Containers ist die Proxy-Brücke der Engine (sandbox-init, schreibgeschützt vom Host eingehängt), die 127.0.0.1:3128 im Container an einen eigenen Filter-Proxy-Socket dieses Containers weiterleitet, in einem Host-Ordner, der sonst nichts enthält und schreibgeschützt eingehängt ist. Full: das Standardnetzwerk der Laufzeitumgebung.</translation>
    </message>
    <message>
        <source>Under the allowlist network mode the engine&apos;s filtering proxy is the container&apos;s only way out: commands get HTTP_PROXY, HTTPS_PROXY and ALL_PROXY pointing at the bridge (HTTP, HTTPS through CONNECT, SOCKS5), and the proxy connects only to the policy&apos;s allowed domains and addresses, a denied entry winning. Nothing else leaves the container, name lookups included (the proxy resolves names). Each set of domain rules gets a container of its own.</source>
        <translation>Im Netzwerkmodus Allowlist ist der Filter-Proxy der Engine der einzige Weg aus dem Container: Befehle erhalten HTTP_PROXY, HTTPS_PROXY und ALL_PROXY, die auf die Brücke zeigen (HTTP, HTTPS über CONNECT, SOCKS5), und der Proxy verbindet nur zu den erlaubten Domains und Adressen der Richtlinie, wobei ein verbotener Eintrag gewinnt. Sonst verlässt nichts den Container, auch keine Namensauflösung (der Proxy löst Namen selbst auf). Jede Menge von Domain-Regeln erhält einen eigenen Container.</translation>
    </message>
    <message>
        <source>Never granted, whatever the policy allows: no runtime socket, session bus or other channel to the host&apos;s programs is mounted into the container (the filtering proxy&apos;s socket, mounted under the allowlist network mode, only relays connections to the allowed domains).</source>
        <translation>Nie gewährt, was auch immer die Richtlinie erlaubt: Kein Socket der Laufzeitumgebung, kein Sitzungsbus und kein anderer Kanal zu den Programmen des Hosts wird in den Container eingehängt (der Socket des Filter-Proxys, im Netzwerkmodus Allowlist eingehängt, leitet nur Verbindungen zu den erlaubten Domains weiter).</translation>
    </message>
    <message>
        <source>DOCKER_HOST is &quot;%1&quot;, which is not a unix socket; set the endpoint to the runtime&apos;s socket.</source>
        <translation>DOCKER_HOST ist „%1“, kein Unix-Socket; setzen Sie den Endpunkt auf den Socket der Laufzeitumgebung.</translation>
    </message>
    <message>
        <source>No Docker-compatible runtime at %1. Start Docker, or Podman&apos;s service (podman system service), or set the endpoint.</source>
        <translation>Keine Docker-kompatible Laufzeitumgebung unter %1. Starten Sie Docker oder den Dienst von Podman (podman system service) oder setzen Sie den Endpunkt.</translation>
    </message>
    <message>
        <source>No Docker-compatible runtime at %1: %2</source>
        <translation>Keine Docker-kompatible Laufzeitumgebung unter %1: %2</translation>
    </message>
    <message>
        <source>The runtime at %1 does not serve the Docker Engine API (%2).</source>
        <translation>Die Laufzeitumgebung unter %1 bietet die Docker-Engine-API nicht an (%2).</translation>
    </message>
    <message>
        <source>The runtime at %1 serves Docker Engine API %2; version %3 or later is needed.</source>
        <translation>Die Laufzeitumgebung unter %1 bietet die Docker-Engine-API %2 an; Version %3 oder neuer wird benötigt.</translation>
    </message>
    <message>
        <source>(unknown)</source>
        <translation>(unbekannt)</translation>
    </message>
    <message>
        <source>No image is set. Choose the image commands run in.</source>
        <translation>Kein Image ist gesetzt. Wählen Sie das Image, in dem Befehle laufen.</translation>
    </message>
    <message>
        <source>The runtime at %1 did not answer: %2</source>
        <translation>Die Laufzeitumgebung unter %1 hat nicht geantwortet: %2</translation>
    </message>
    <message>
        <source>The image %1 is not present in the runtime at %2. Get it with &quot;docker pull %1&quot; or &quot;podman pull %1&quot; (or build or import it there), then activate again.</source>
        <translation>Das Image %1 ist in der Laufzeitumgebung unter %2 nicht vorhanden. Holen Sie es mit „docker pull %1“ oder „podman pull %1“ (oder bauen bzw. importieren Sie es dort) und aktivieren Sie dann erneut.</translation>
    </message>
    <message>
        <source>The runtime at %1 cannot inspect the image %2: %3</source>
        <translation>Die Laufzeitumgebung unter %1 kann das Image %2 nicht untersuchen: %3</translation>
    </message>
    <message>
        <source>The Docker backend is not prepared; activate it first.</source>
        <translation>Das Docker-Backend ist nicht vorbereitet; aktivieren Sie es zuerst.</translation>
    </message>
    <message>
        <source>Cannot create the folder %1.</source>
        <translation>Der Ordner %1 kann nicht angelegt werden.</translation>
    </message>
    <message>
        <source>The image commands run in. It must be present in the runtime, and needs only the programs the commands use.</source>
        <translation>Das Image, in dem Befehle laufen. Es muss in der Laufzeitumgebung vorhanden sein und braucht nur die Programme, die die Befehle verwenden.</translation>
    </message>
    <message>
        <source>The engine has no folder for the commands&apos; status channels.</source>
        <translation>Die Engine hat keinen Ordner für die Statuskanäle der Befehle.</translation>
    </message>
    <message>
        <source>Needs allowed domains. Commands see a placeholder (in the credential&apos;s variable), never the value. The engine&apos;s filtering proxy, the container&apos;s only way out, terminates TLS only toward a credential&apos;s hosts (a certificate of the engine&apos;s own authority per host; the real host verified against the system&apos;s authorities and the policy&apos;s extra ones), replaces the placeholder with the value only in the allowed headers (inside &quot;Authorization: Basic&quot; too) of requests whose Host header and TLS server name are the tunnel&apos;s host (compared byte for byte; anything else is refused as domain fronting), refuses TRACE and protocol upgrades, withholds an answer that carries a value back (an echo) and ends the connection, and reports every placeholder it sees going elsewhere, for this backend. The engine&apos;s certificate bundle (the system&apos;s authorities, the engine&apos;s, the policy&apos;s extra ones) is mounted read-only at /run/sandbox-studio/ca-bundle.pem and over /etc/ssl/certs/ca-certificates.crt, and named by SSL_CERT_FILE, NODE_EXTRA_CA_CERTS, REQUESTS_CA_BUNDLE, CURL_CA_BUNDLE, GIT_SSL_CAINFO, PIP_CERT and AWS_CA_BUNDLE; images that keep their bundle elsewhere trust the authority only through those variables. The authority&apos;s private key never enters the container. Each set of credentials gets a container of its own.</source>
        <translation>Benötigt erlaubte Domains. Befehle sehen einen Platzhalter (in der Variable des Zugangsdatums), nie den Wert. Der Filter-Proxy der Engine, der einzige Weg des Containers nach draußen, terminiert TLS nur zu den Hosts eines Zugangsdatums (ein Zertifikat der eigenen Zertifizierungsstelle der Engine pro Host; der echte Host wird gegen die Zertifizierungsstellen des Systems und die zusätzlichen der Richtlinie geprüft), ersetzt den Platzhalter durch den Wert nur in den erlaubten Headern (auch innerhalb von &quot;Authorization: Basic&quot;) von Anfragen, deren Host-Header und TLS-Servername der Host des Tunnels sind (Byte für Byte verglichen; alles andere wird als Domain Fronting abgewiesen), weist TRACE und Protokoll-Upgrades ab, hält eine Antwort zurück, die einen Wert zurückbringt (ein Echo), und beendet die Verbindung, und meldet jeden Platzhalter, den er anderswohin gehen sieht, für dieses Backend. Das Zertifikatsbündel der Engine (die Zertifizierungsstellen des Systems, die der Engine, die zusätzlichen der Richtlinie) ist schreibgeschützt unter /run/sandbox-studio/ca-bundle.pem und über /etc/ssl/certs/ca-certificates.crt eingehängt und wird von SSL_CERT_FILE, NODE_EXTRA_CA_CERTS, REQUESTS_CA_BUNDLE, CURL_CA_BUNDLE, GIT_SSL_CAINFO, PIP_CERT und AWS_CA_BUNDLE genannt; Images, die ihr Bündel anderswo aufbewahren, vertrauen der Zertifizierungsstelle nur über diese Variablen. Der private Schlüssel der Zertifizierungsstelle gelangt nie in den Container. Jeder Satz von Zugangsdaten erhält einen eigenen Container.</translation>
    </message>
    <message>
        <source>This engine offers no credential injection; nothing was run.</source>
        <translation>Diese Engine bietet kein Einsetzen von Zugangsdaten; nichts wurde ausgeführt.</translation>
    </message>
    <message>
        <source>This engine offers no SSH agent; nothing was run.</source>
        <translation>Diese Engine bietet keinen SSH-Agenten; es wurde nichts ausgeführt.</translation>
    </message>
    <message>
        <source>Needs allowed domains. The container&apos;s only way out is its proxy bridge to the engine&apos;s filtering proxy, which checks every target against the allowed and denied domains first, then reaches it only through the upstream proxy (CONNECT host:port, over TLS to the proxy when its URL is https, verified against the system&apos;s authorities and the policy&apos;s extra ones; plain HTTP requests too), never directly; the engine, not the container, connects to the upstream proxy, and the upstream proxy resolves the names (IP literals are still checked against internal addresses by the engine&apos;s proxy). Its credential is read from the secret storage when a connection needs it and sent to the upstream proxy alone (Proxy-Authorization: Basic), never into the container. Its refusals (407, 403) are reported as network refusals for this backend; its other failures, and an unreachable proxy, answer the command&apos;s connection with the reason. Toward a credential&apos;s hosts the real host&apos;s certificate is still verified through the tunnel. Each upstream proxy (its URL and credential name) gets a container of its own.</source>
        <translation>Benötigt erlaubte Domains. Der einzige Weg aus dem Container ist seine Proxy-Brücke zum Filter-Proxy der Engine, der jedes Ziel zuerst gegen die erlaubten und verbotenen Domains prüft und es dann nur über den vorgeschalteten Proxy erreicht (CONNECT host:port, per TLS zum Proxy, wenn seine URL https ist, geprüft gegen die Zertifizierungsstellen des Systems und die zusätzlichen der Richtlinie; auch einfache HTTP-Anfragen), nie direkt; die Engine, nicht der Container, verbindet sich mit dem vorgeschalteten Proxy, und dieser löst die Namen auf (IP-Literale prüft der Proxy der Engine weiterhin gegen interne Adressen). Seine Zugangsdaten werden aus dem Geheimnisspeicher gelesen, wenn eine Verbindung sie braucht, und nur an den vorgeschalteten Proxy gesendet (Proxy-Authorization: Basic), nie in den Container. Seine Verweigerungen (407, 403) werden als Netzwerkverweigerungen für dieses Backend gemeldet; seine anderen Fehler und ein unerreichbarer Proxy beantworten die Verbindung des Befehls mit dem Grund. Zu den Hosts einer Zugangsberechtigung wird das Zertifikat des echten Hosts weiterhin durch den Tunnel geprüft. Jeder vorgeschaltete Proxy (seine URL und der Name seiner Zugangsdaten) erhält einen eigenen Container.</translation>
    </message>
    <message>
        <source>Each command gets a filtering agent of the engine&apos;s own, named by SSH_AUTH_SOCK inside the container (the user&apos;s agent socket stays out of reach: it is not mounted unless a writable path holds it, and the command cannot connect to it even then): it lists and signs with the policy&apos;s keys only, asks the user before a signature as the policy&apos;s confirm says, passes no extension but session-bind@openssh.com, refuses adding, removing, locking and unlocking keys, and reports every refusal. Its socket is in the container&apos;s status folder (mounted read-only), beside the agents of the container&apos;s other commands, so every command of a container whose policy has an agent runs with its connect() calls handed to sandbox-init, which makes them itself (the agent&apos;s through a descriptor opened before the command ran) and refuses every other unix socket, another command&apos;s agent included; datagram unix sockets are refused. A command that ends its own sandbox-init (commands share the container&apos;s processes) gets every such call refused from then on, cannot take them over with a seccomp listener of its own, and its container is removed when it ends. Policies with and without an agent never share a container. The agent ends with the command. SSH connections to the policy&apos;s hosts (port 22 unless one is given; they need the network mode allowlist) go only through the filtering proxy, which allows those hosts beside the allowed domains: git uses an SSH configuration of the engine&apos;s, in the same folder (GIT_SSH_COMMAND; others: ssh -F &quot;$SANDBOX_SSH_CONFIG&quot;), whose ProxyCommand is sandbox-init&apos;s tunnel through the container&apos;s proxy bridge, whose host keys are the user&apos;s known-hosts entries for those hosts, copied read-only and checked strictly, and which reads none of the user&apos;s SSH options. Under the allowlist and none modes an ssh that ignores that configuration reaches nothing, as the container has no other way out; under full the container has the runtime&apos;s network, and SSH goes wherever it is pointed. The image must hold the SSH client.</source>
        <translation>Jeder Befehl erhält einen eigenen filternden Agenten der Engine, im Container über SSH_AUTH_SOCK benannt (der Agenten-Socket des Benutzers bleibt unerreichbar: Er wird nicht eingehängt, es sei denn, ein beschreibbarer Pfad enthält ihn, und selbst dann kann sich der Befehl nicht mit ihm verbinden): Er listet nur die Schlüssel der Richtlinie und signiert nur mit ihnen, fragt den Benutzer vor einer Signatur, wie es confirm der Richtlinie verlangt, lässt keine Erweiterung außer session-bind@openssh.com durch, verweigert das Hinzufügen, Entfernen, Sperren und Entsperren von Schlüsseln und meldet jede Verweigerung. Sein Socket liegt im Statusordner des Containers (schreibgeschützt eingehängt), neben den Agenten der anderen Befehle des Containers; daher läuft jeder Befehl eines Containers, dessen Richtlinie einen Agenten hat, mit an sandbox-init übergebenen connect()-Aufrufen: sandbox-init stellt sie selbst her (die zum Agenten über einen Deskriptor, der vor dem Befehl geöffnet wurde) und verweigert jeden anderen Unix-Socket, auch den Agenten eines anderen Befehls; Unix-Datagramm-Sockets werden verweigert. Ein Befehl, der sein eigenes sandbox-init beendet (die Befehle teilen die Prozesse des Containers), bekommt jeden solchen Aufruf von da an verweigert, kann sie nicht mit einem eigenen seccomp-Listener übernehmen, und sein Container wird entfernt, wenn er endet. Richtlinien mit und ohne Agent teilen nie einen Container. Der Agent endet mit dem Befehl. SSH-Verbindungen zu den Hosts der Richtlinie (Port 22, sofern keiner angegeben ist; sie benötigen den Netzwerkmodus allowlist) laufen nur über den Filter-Proxy, der diese Hosts neben den erlaubten Domains zulässt: git verwendet eine SSH-Konfiguration der Engine im selben Ordner (GIT_SSH_COMMAND; andere: ssh -F &quot;$SANDBOX_SSH_CONFIG&quot;), deren ProxyCommand der Tunnel von sandbox-init durch die Proxy-Brücke des Containers ist, deren Hostschlüssel die Einträge der bekannten Hosts des Benutzers für diese Hosts sind, schreibgeschützt kopiert und streng geprüft, und die keine SSH-Optionen des Benutzers liest. In den Modi allowlist und none erreicht ein ssh, das diese Konfiguration übergeht, nichts, da der Container keinen anderen Weg nach draußen hat; im Modus full hat der Container das Netzwerk der Laufzeitumgebung, und SSH geht, wohin es gerichtet wird. Das Image muss den SSH-Client enthalten.</translation>
    </message>
    <message>
        <source>Reported as they happen: every write sandbox-init&apos;s write gate refuses, tied to the command (at most 64 a command); every connection the filtering proxy refuses under the allowlist network mode, the upstream proxy&apos;s refusals included, for this backend (a container&apos;s proxy socket serves every command in it, so a refusal is not tied to one command); and the engine&apos;s own refusals. Not observed: what the container&apos;s runtime, the seccomp filters or the read-only root filesystem refuse inside it.</source>
        <translation>Gemeldet, sobald sie geschehen: jeder Schreibvorgang, den das Schreibtor von sandbox-init verweigert, dem Befehl zugeordnet (höchstens 64 pro Befehl); jede Verbindung, die der Filter-Proxy im Netzwerkmodus allowlist verweigert, einschließlich der Verweigerungen des vorgeschalteten Proxys, für dieses Backend (der Proxy-Socket eines Containers bedient jeden Befehl darin, daher ist eine Verweigerung keinem einzelnen Befehl zugeordnet); und die eigenen Verweigerungen der Engine. Nicht beobachtet: was die Laufzeitumgebung des Containers, die seccomp-Filter oder das schreibgeschützte Wurzeldateisystem darin verweigern.</translation>
    </message>
    <message>
        <source>Which kernel enforces this is the OCI runtime&apos;s: the host&apos;s Linux kernel under runc and crun, gVisor&apos;s user-space kernel (the Sentry) under runsc.</source>
        <translation>Welcher Kernel dies durchsetzt, hängt von der OCI-Laufzeit ab: unter runc und crun der Linux-Kernel des Hosts, unter runsc der User-Space-Kernel von gVisor (der Sentry).</translation>
    </message>
    <message>
        <source>OCI runtime</source>
        <translation>OCI-Laufzeit</translation>
    </message>
    <message>
        <source>The OCI runtime containers run under, one of those the Docker-compatible runtime offers (docker info: Runtimes), such as runc, crun or runsc (gVisor). Empty: its default. Activation checks it, lists the ones offered, and refuses a runtime under which commands cannot run confined.</source>
        <translation>Die OCI-Laufzeit, unter der Container laufen, eine von denen, die die Docker-kompatible Laufzeitumgebung anbietet (docker info: Runtimes), etwa runc, crun oder runsc (gVisor). Leer: ihre Standardlaufzeit. Die Aktivierung prüft sie, listet die angebotenen auf und lehnt eine Laufzeit ab, unter der Befehle nicht eingeschränkt laufen können.</translation>
    </message>
    <message>
        <source>Commands run in the container&apos;s own namespaces as your uid and gid, with every capability dropped, no-new-privileges and the container&apos;s process limit. Commands of one workspace share its container and can see each other&apos;s processes. Besides the runtime&apos;s default seccomp profile each command gets sandbox-init&apos;s seccomp deny list, as in the auto backend: no command uses ptrace or process_vm_readv, creates a namespace, mounts, or uses io_uring, bpf or the kernel keyring, and none can trace, read or limit sandbox-init. </source>
        <translation>Befehle laufen in den eigenen Namensräumen des Containers mit Ihrer UID und GID, ohne jede Capability, mit no-new-privileges und dem Prozesslimit des Containers. Befehle eines Arbeitsbereichs teilen sich seinen Container und sehen gegenseitig ihre Prozesse. Neben dem Standard-seccomp-Profil der Laufzeitumgebung bekommt jeder Befehl die seccomp-Sperrliste von sandbox-init, wie im auto-Backend: kein Befehl verwendet ptrace oder process_vm_readv, erzeugt einen Namensraum, hängt etwas ein oder verwendet io_uring, bpf oder den Kernel-Schlüsselbund, und keiner kann sandbox-init verfolgen, lesen oder begrenzen. </translation>
    </message>
    <message>
        <source>OCI runtimes offered by the runtime at %1: %2 (default: %3). Commands run under %4.</source>
        <translation>OCI-Laufzeiten, die die Laufzeitumgebung unter %1 anbietet: %2 (Standard: %3). Befehle laufen unter %4.</translation>
    </message>
    <message>
        <source>not said</source>
        <translation>nicht angegeben</translation>
    </message>
    <message>
        <source>the default</source>
        <translation>die Standardlaufzeit</translation>
    </message>
    <message>
        <source>SSH identity file</source>
        <translation>SSH-Identitätsdatei</translation>
    </message>
    <message>
        <source>For ssh:// endpoints: the private key to log in with, and only it. Empty: your SSH agent and keys, as ssh chooses them.</source>
        <translation>Für ssh://-Endpunkte: der private Schlüssel für die Anmeldung, und nur dieser. Leer: Ihr SSH-Agent und Ihre Schlüssel, wie ssh sie auswählt.</translation>
    </message>
    <message>
        <source>SSH known hosts file</source>
        <translation>Datei der bekannten SSH-Hosts</translation>
    </message>
    <message>
        <source>For ssh:// endpoints: the known_hosts file the host&apos;s key is checked against. Empty: your ~/.ssh/known_hosts. Host keys are always checked.</source>
        <translation>Für ssh://-Endpunkte: die known_hosts-Datei, gegen die der Schlüssel des Hosts geprüft wird. Leer: Ihre ~/.ssh/known_hosts. Hostschlüssel werden immer geprüft.</translation>
    </message>
    <message>
        <source>The image&apos;s root filesystem, read-only, with a private /tmp. Of the host&apos;s files only the workspace and the policy&apos;s other writable folders are mounted, read-write at the same path, with the policy&apos;s read-only paths inside them mounted read-only (those that do not exist yet, and a link&apos;s own name, kept by the write gate); besides them the engine&apos;s helper program (sandbox-init) and a folder of the container&apos;s own for its commands&apos; status channels (and SSH agents), both read-only, under the allowlist network mode also its filtering proxy socket&apos;s folder, read-only, and the small files the runtime generates (such as /etc/hosts). No denied path is ever mounted: a denied folder inside the workspace is covered by an empty read-only folder, and a denied file there refuses the command. Every command runs under sandbox-init&apos;s write gate, as in the auto backend: its calls that create, write, truncate, link, rename or remove a file are handed to sandbox-init, which judges them by the rules every backend shares and makes them itself. So in the mounted folders no command creates or changes a file that makes the host&apos;s git run code, in any repository, existing or new, at any depth: no entry named .git is created, moved or removed (no git init, no .git file or link pointing elsewhere), no control file of a git directory (config, hooks, info, commondir, gitdir, config.worktree and the object alternates of a .git, a bare repository, or the git directories under its modules and worktrees) is created or changed, no HEAD is made outside a git directory (no new bare repository), nothing is moved into or out of a git directory, no read-only path is changed and no file with other hard links is written, while git add, commit, branch and stash work. Each such write fails with &quot;permission denied&quot; when it is made and is reported. A chmod that sets an execute bit is made by sandbox-init too and refused on those files, so a hook left non-executable stays so. Not judged: a unix socket bound to such a name (bind), which holds no code but, taking a hook&apos;s name, makes the host&apos;s git fail to run that hook. The existing control files of the repository at the root of each mounted folder are mounted read-only as well, a second wall.</source>
        <translation>Das Wurzeldateisystem des Images, schreibgeschützt, mit einem eigenen /tmp. Von den Dateien des Hosts werden nur der Arbeitsbereich und die anderen beschreibbaren Ordner der Richtlinie eingehängt, beschreibbar unter demselben Pfad, die schreibgeschützten Pfade der Richtlinie darin schreibgeschützt (die noch nicht existierenden und den eigenen Namen eines Links hält das Schreibtor schreibgeschützt); außerdem das Hilfsprogramm der Engine (sandbox-init) und ein eigener Ordner des Containers für die Statuskanäle (und SSH-Agenten) seiner Befehle, beide schreibgeschützt, im Netzwerkmodus Allowlist auch der Ordner seines Filter-Proxy-Sockets, schreibgeschützt, und die kleinen Dateien, die die Laufzeitumgebung erzeugt (etwa /etc/hosts). Kein verbotener Pfad wird je eingehängt: Ein verbotener Ordner im Arbeitsbereich wird von einem leeren schreibgeschützten Ordner verdeckt, und eine verbotene Datei dort lässt den Befehl abweisen. Jeder Befehl läuft unter dem Schreibtor von sandbox-init, wie im Backend auto: Seine Aufrufe, die eine Datei anlegen, schreiben, kürzen, verlinken, umbenennen oder entfernen, gehen an sandbox-init, das sie nach den Regeln beurteilt, die alle Backends teilen, und sie selbst ausführt. In den eingehängten Ordnern legt daher kein Befehl eine Datei an oder ändert eine, die Git des Hosts Code ausführen lässt, in keinem Repository, bestehend oder neu, in keiner Tiefe: Kein Eintrag namens .git wird angelegt, verschoben oder entfernt (kein git init, keine .git-Datei und kein .git-Link, der anderswohin zeigt), keine Steuerdatei eines Git-Verzeichnisses (config, hooks, info, commondir, gitdir, config.worktree und die Objekt-Alternates eines .git, eines Bare-Repositorys oder der Git-Verzeichnisse unter seinen modules und worktrees) wird angelegt oder geändert, kein HEAD entsteht außerhalb eines Git-Verzeichnisses (kein neues Bare-Repository), nichts wird in ein Git-Verzeichnis hinein oder aus ihm heraus verschoben, kein schreibgeschützter Pfad wird geändert und keine Datei mit weiteren harten Links wird geschrieben, während git add, commit, branch und stash funktionieren. Jeder solche Schreibzugriff schlägt im Moment des Schreibens mit „permission denied“ fehl und wird gemeldet. Ein chmod, das ein Ausführungsbit setzt, führt ebenfalls sandbox-init aus und verweigert es für diese Dateien, sodass ein nicht ausführbar gelassener Hook es bleibt. Nicht geprüft: ein Unix-Socket, der unter einem solchen Namen gebunden wird (bind); er enthält keinen Code, lässt aber, wenn er den Namen eines Hooks belegt, das git des Hosts beim Ausführen dieses Hooks scheitern. Die vorhandenen Steuerdateien des Repositorys an der Wurzel jedes eingehängten Ordners sind zusätzlich schreibgeschützt eingehängt, eine zweite Mauer.</translation>
    </message>
    <message>
        <source>the default OCI runtime</source>
        <translation>der Standard-OCI-Laufzeit</translation>
    </message>
    <message>
        <source>Activate the backend again.</source>
        <translation>Aktivieren Sie das Backend erneut.</translation>
    </message>
    <message>
        <source>the engine at %1</source>
        <translation>die Engine unter %1</translation>
    </message>
    <message>
        <source>The runtime&apos;s unix socket (unix:///path or /path), or an engine on another host reached over SSH (ssh://user@host[:port][/socket/path]; without a path /var/run/docker.sock), with your SSH keys, agent and known_hosts, or over TLS (tcp://host:port, with the TLS settings below; plain TCP only to a loopback address): there each command gets a container of its own, the workspace copied in before it and brought back after it; over SSH the filtering proxy is forwarded there, over TLS the network mode allowlist is refused. Empty: DOCKER_HOST, then /var/run/docker.sock, then your Podman socket.</source>
        <translation>Der Unix-Socket der Laufzeitumgebung (unix:///path oder /path) oder eine Engine auf einem anderen Host, erreicht über SSH (ssh://user@host[:port][/socket/path]; ohne Pfad /var/run/docker.sock) mit Ihren SSH-Schlüsseln, Ihrem Agenten und Ihren known_hosts, oder über TLS (tcp://host:port, mit den TLS-Einstellungen unten; reines TCP nur zu einer Loopback-Adresse): Dort erhält jeder Befehl einen eigenen Container, der Arbeitsbereich wird vor ihm hineinkopiert und nach ihm zurückgeholt; über SSH wird der Filter-Proxy dorthin weitergeleitet, über TLS wird der Netzwerkmodus allowlist abgewiesen. Leer: DOCKER_HOST, dann /var/run/docker.sock, dann Ihr Podman-Socket.</translation>
    </message>
    <message>
        <source>TLS CA certificate</source>
        <translation>TLS-CA-Zertifikat</translation>
    </message>
    <message>
        <source>For tcp:// endpoints: the file of the CA certificate the engine&apos;s certificate is checked against (only it, not the system&apos;s authorities); the certificate must also name the endpoint&apos;s host. Empty: plain TCP, accepted only to a loopback address.</source>
        <translation>Für tcp://-Endpunkte: die Datei des CA-Zertifikats, gegen das das Zertifikat der Engine geprüft wird (nur dieses, nicht die Zertifizierungsstellen des Systems); das Zertifikat muss außerdem den Host des Endpunkts nennen. Leer: reines TCP, nur zu einer Loopback-Adresse zugelassen.</translation>
    </message>
    <message>
        <source>TLS client certificate</source>
        <translation>TLS-Client-Zertifikat</translation>
    </message>
    <message>
        <source>For tcp:// endpoints: the file of the client certificate presented to the engine, its key kept as the secret below. Empty: none.</source>
        <translation>Für tcp://-Endpunkte: die Datei des Client-Zertifikats, das der Engine vorgelegt wird; sein Schlüssel wird als das Geheimnis unten aufbewahrt. Leer: keines.</translation>
    </message>
    <message>
        <source>TLS client key</source>
        <translation>TLS-Client-Schlüssel</translation>
    </message>
    <message>
        <source>For tcp:// endpoints: the client certificate&apos;s private key (its PEM text, without a passphrase). It is kept in the keychain and used only to connect to the engine.</source>
        <translation>Für tcp://-Endpunkte: der private Schlüssel des Client-Zertifikats (sein PEM-Text, ohne Passphrase). Er wird im Schlüsselbund aufbewahrt und nur für die Verbindung zur Engine verwendet.</translation>
    </message>
    <message>
        <source>On an engine on another host: every write sandbox-init&apos;s write gate refuses, tied to the command (at most 64 a command), reported when the command has ended (read from its status file); every connection the filtering proxy refuses under the allowlist network mode over SSH, the upstream proxy&apos;s refusals included, reported as it happens, for this backend; and the engine&apos;s own refusals. Not observed: what the container&apos;s runtime, the seccomp filters or the read-only root filesystem refuse inside it.</source>
        <translation>Bei einer Engine auf einem anderen Host: jeder Schreibvorgang, den das Schreibtor von sandbox-init verweigert, dem Befehl zugeordnet (höchstens 64 pro Befehl), gemeldet, wenn der Befehl beendet ist (aus seiner Statusdatei gelesen); jede Verbindung, die der Filter-Proxy im Netzwerkmodus allowlist über SSH verweigert, einschließlich der Verweigerungen des vorgeschalteten Proxys, gemeldet, sobald sie geschieht, für dieses Backend; und die eigenen Verweigerungen der Engine. Nicht beobachtet: was die Laufzeitumgebung des Containers, die seccomp-Filter oder das schreibgeschützte Wurzeldateisystem darin verweigern.</translation>
    </message>
    <message>
        <source>On an engine reached over SSH or TLS (ssh://, tcp://) nothing of this computer is mounted: each command runs in a container of its own on that host, whose root filesystem is the image&apos;s, read-only, with a private /tmp. The workspace is a volume at the same path, filled before the command with the workspace&apos;s files (the policy&apos;s denied paths are never sent) and read back after it: what comes back is written to this computer only where the policy lets it be written, never into a read-only or denied path, never a repository&apos;s control file (its hooks, its config and the like), and a file changed on both sides is kept as this computer has it, the other copy beside it, with a note. No other folder of the host is there, so nothing else the command writes comes back. Under the allowlist network mode the folder on the remote host holding the filtering proxy&apos;s forwarded socket, and nothing else, is mounted read-only. The engine&apos;s helper (sandbox-init) and the command&apos;s status file are copied into a volume of the container&apos;s own, read-only to the command. Every command runs under sandbox-init&apos;s write gate as on a local engine: no entry named .git is created, moved or removed, no control file of a git directory is created or changed, no read-only or denied path is written, each such write failing with &quot;permission denied&quot; and reported when the command has ended.</source>
        <translation>Bei einer über SSH oder TLS erreichten Engine (ssh://, tcp://) wird nichts von diesem Computer eingehängt: Jeder Befehl läuft in einem eigenen Container auf diesem Host, dessen Wurzeldateisystem das des Images ist, schreibgeschützt, mit einem eigenen /tmp. Der Arbeitsbereich ist ein Volume unter demselben Pfad, das vor dem Befehl mit den Dateien des Arbeitsbereichs gefüllt (die verbotenen Pfade der Richtlinie werden nie gesendet) und nach ihm zurückgelesen wird: Was zurückkommt, wird auf diesem Computer nur dort geschrieben, wo die Richtlinie das Schreiben erlaubt, nie in einen schreibgeschützten oder verbotenen Pfad, nie in eine Steuerdatei eines Repositorys (seine Hooks, seine Konfiguration und dergleichen), und eine auf beiden Seiten geänderte Datei bleibt so, wie dieser Computer sie hat, mit der anderen Kopie daneben und einem Hinweis. Kein anderer Ordner des Hosts ist dort, daher kommt nichts anderes zurück, was der Befehl schreibt. Im Netzwerkmodus Allowlist wird der Ordner auf dem entfernten Host, der den weitergeleiteten Socket des Filter-Proxys enthält, und sonst nichts schreibgeschützt eingehängt. Das Hilfsprogramm der Engine (sandbox-init) und die Statusdatei des Befehls werden in ein eigenes Volume des Containers kopiert, für den Befehl schreibgeschützt. Jeder Befehl läuft wie bei einer lokalen Engine unter dem Schreibtor von sandbox-init: Kein Eintrag namens .git wird angelegt, verschoben oder entfernt, keine Steuerdatei eines Git-Verzeichnisses wird angelegt oder geändert, kein schreibgeschützter oder verbotener Pfad wird beschrieben; jeder solche Schreibzugriff schlägt mit „permission denied“ fehl und wird gemeldet, wenn der Befehl beendet ist.</translation>
    </message>
    <message>
        <source>On an engine reached over SSH or TLS each command runs in a container of its own on that host, removed when the command has ended, in the container&apos;s own namespaces as your uid and gid, with every capability dropped, no-new-privileges and the container&apos;s process limit. Besides the runtime&apos;s default seccomp profile each command gets sandbox-init&apos;s seccomp deny list, as in the auto backend: no command uses ptrace or process_vm_readv, creates a namespace, mounts, or uses io_uring, bpf or the kernel keyring, and none can trace, read or limit sandbox-init. The host named below is the remote one. </source>
        <translation>Bei einer über SSH oder TLS erreichten Engine läuft jeder Befehl in einem eigenen Container auf diesem Host, der entfernt wird, wenn der Befehl beendet ist, in den eigenen Namensräumen des Containers mit Ihrer UID und GID, ohne jede Capability, mit no-new-privileges und dem Prozesslimit des Containers. Neben dem Standard-seccomp-Profil der Laufzeitumgebung bekommt jeder Befehl die seccomp-Sperrliste von sandbox-init, wie im auto-Backend: kein Befehl verwendet ptrace oder process_vm_readv, erzeugt einen Namensraum, hängt etwas ein oder verwendet io_uring, bpf oder den Kernel-Schlüsselbund, und keiner kann sandbox-init verfolgen, lesen oder begrenzen. Der unten genannte Host ist der entfernte. </translation>
    </message>
    <message>
        <source>Network none: the container has no network interface but loopback. Full: the remote engine&apos;s default network. Allowlist: no network interface but loopback either; the container&apos;s first process is the engine&apos;s proxy bridge (sandbox-init), which relays 127.0.0.1:3128 inside the container to a filtering proxy socket of the command&apos;s own, forwarded from this computer over the SSH connection (OpenSSH&apos;s remote stream-local forwarding) into a folder made for it on the remote host, owner-only, holding nothing else, mounted read-only. Only the remote user can connect to it (besides that host&apos;s root, and whoever may use its engine, which can mount any of its paths), and the bridge runs as that user&apos;s uid and gid. The forward and the folder are removed when the command has ended, and by the remote host when the SSH connection ends. When the forward ends under a command, its connections through the proxy fail from then on and a note says so.</source>
        <translation>Netzwerk none: Der Container hat keine Netzwerkschnittstelle außer Loopback. Full: das Standardnetzwerk der entfernten Engine. Allowlist: ebenfalls keine Netzwerkschnittstelle außer Loopback; der erste Prozess des Containers ist die Proxy-Brücke der Engine (sandbox-init), die 127.0.0.1:3128 im Container an einen eigenen Filter-Proxy-Socket des Befehls weiterleitet, der von diesem Computer über die SSH-Verbindung (Remote-Stream-Local-Weiterleitung von OpenSSH) in einen eigens dafür angelegten Ordner auf dem entfernten Host weitergeleitet wird, der nur für den Eigentümer zugänglich ist, sonst nichts enthält und schreibgeschützt eingehängt ist. Nur der entfernte Benutzer kann sich damit verbinden (außer root dieses Hosts und allen, die dessen Engine verwenden dürfen, die jeden seiner Pfade einhängen kann), und die Brücke läuft mit der UID und GID dieses Benutzers. Weiterleitung und Ordner werden entfernt, wenn der Befehl beendet ist, und vom entfernten Host, wenn die SSH-Verbindung endet. Endet die Weiterleitung während eines Befehls, schlagen seine Verbindungen über den Proxy von da an fehl, und ein Hinweis meldet das.</translation>
    </message>
    <message>
        <source>Under the allowlist network mode the engine&apos;s filtering proxy, on this computer, is the remote container&apos;s only way out: commands get HTTP_PROXY, HTTPS_PROXY and ALL_PROXY pointing at the bridge (HTTP, HTTPS through CONNECT, SOCKS5), and the proxy connects from this computer only to the policy&apos;s allowed domains and addresses, a denied entry winning. Nothing else leaves the container, name lookups included (the proxy resolves names). Its refusals are reported as they happen, for this backend.</source>
        <translation>Im Netzwerkmodus Allowlist ist der Filter-Proxy der Engine auf diesem Computer der einzige Weg aus dem entfernten Container: Befehle erhalten HTTP_PROXY, HTTPS_PROXY und ALL_PROXY, die auf die Brücke zeigen (HTTP, HTTPS über CONNECT, SOCKS5), und der Proxy verbindet von diesem Computer aus nur zu den erlaubten Domains und Adressen der Richtlinie, wobei ein verbotener Eintrag gewinnt. Sonst verlässt nichts den Container, auch keine Namensauflösung (der Proxy löst Namen selbst auf). Seine Verweigerungen werden gemeldet, sobald sie geschehen, für dieses Backend.</translation>
    </message>
    <message>
        <source>Needs allowed domains. On an engine reached over SSH as locally: the engine&apos;s filtering proxy, on this computer, checks every target against the allowed and denied domains first, then reaches it only through the upstream proxy (CONNECT host:port, over TLS to the proxy when its URL is https, verified against the system&apos;s authorities and the policy&apos;s extra ones; plain HTTP requests too), never directly; the engine, not the container, connects to the upstream proxy, and the upstream proxy resolves the names. Its credential is read from the secret storage when a connection needs it and sent to the upstream proxy alone, never to the remote host. Its refusals (407, 403) are reported as network refusals for this backend; its other failures, and an unreachable proxy, answer the command&apos;s connection with the reason.</source>
        <translation>Benötigt erlaubte Domains. Bei einer über SSH erreichten Engine wie lokal: Der Filter-Proxy der Engine auf diesem Computer prüft jedes Ziel zuerst gegen die erlaubten und verbotenen Domains und erreicht es dann nur über den vorgeschalteten Proxy (CONNECT host:port, per TLS zum Proxy, wenn seine URL https ist, geprüft gegen die Zertifizierungsstellen des Systems und die zusätzlichen der Richtlinie; auch einfache HTTP-Anfragen), nie direkt; die Engine, nicht der Container, verbindet sich mit dem vorgeschalteten Proxy, und dieser löst die Namen auf. Seine Zugangsdaten werden aus dem Geheimnisspeicher gelesen, wenn eine Verbindung sie braucht, und nur an den vorgeschalteten Proxy gesendet, nie an den entfernten Host. Seine Verweigerungen (407, 403) werden als Netzwerkverweigerungen für dieses Backend gemeldet; seine anderen Fehler und ein unerreichbarer Proxy beantworten die Verbindung des Befehls mit dem Grund.</translation>
    </message>
    <message>
        <source>Refused on an engine reached over SSH (the endpoint setting): only the filtering proxy&apos;s socket is forwarded there, not the engine&apos;s certificate authority&apos;s bundle or its SSH agent, so nothing runs under such a policy.</source>
        <translation>Abgewiesen bei einer über SSH erreichten Engine (die Endpunkt-Einstellung): Nur der Socket des Filter-Proxys wird dorthin weitergeleitet, nicht das Bündel der Zertifizierungsstelle der Engine und nicht ihr SSH-Agent, daher läuft unter einer solchen Richtlinie nichts.</translation>
    </message>
    <message>
        <source>Network none: the container has no network interface but loopback. Full: the remote engine&apos;s default network. Allowlist: refused on an engine reached over TLS (nothing runs), since the engine&apos;s filtering proxy is forwarded over SSH only, and no container gets more network than the policy allows.</source>
        <translation>Netzwerk none: Der Container hat keine Netzwerkschnittstelle außer Loopback. Full: das Standardnetzwerk der entfernten Engine. Allowlist: abgewiesen bei einer über TLS erreichten Engine (nichts läuft), da der Filter-Proxy der Engine nur über SSH weitergeleitet wird und kein Container mehr Netzwerk erhält, als die Richtlinie erlaubt.</translation>
    </message>
    <message>
        <source>Refused on an engine reached over TLS (the endpoint setting): the engine&apos;s filtering proxy and SSH agent are not forwarded there, so nothing runs under such a policy.</source>
        <translation>Abgewiesen bei einer über TLS erreichten Engine (die Endpunkt-Einstellung): Filter-Proxy und SSH-Agent der Engine werden nicht dorthin weitergeleitet, daher läuft unter einer solchen Richtlinie nichts.</translation>
    </message>
    <message>
        <source>Never granted, whatever the policy allows: the container on the remote host gets no runtime socket, session bus or other channel to that host&apos;s programs, nor to this computer&apos;s (the filtering proxy&apos;s forwarded socket, mounted under the allowlist network mode, only relays connections to the allowed domains).</source>
        <translation>Nie gewährt, was auch immer die Richtlinie erlaubt: Der Container auf dem entfernten Host erhält keinen Socket der Laufzeitumgebung, keinen Sitzungsbus und keinen anderen Kanal zu den Programmen dieses Hosts oder zu denen dieses Computers (der weitergeleitete Socket des Filter-Proxys, im Netzwerkmodus Allowlist eingehängt, leitet nur Verbindungen zu den erlaubten Domains weiter).</translation>
    </message>
    <message numerus="yes">
        <source>Removed %n container(s) from the engine at %1 that commands of this computer had left there (their engine process ended, or its connection to the engine died under them).</source>
        <translation>
            <numerusform>%n Container von der Engine unter %1 entfernt, den Befehle dieses Computers dort zurückgelassen hatten (ihr Engine-Prozess endete oder seine Verbindung zur Engine brach unter ihnen ab).</numerusform>
            <numerusform>%n Container von der Engine unter %1 entfernt, die Befehle dieses Computers dort zurückgelassen hatten (ihr Engine-Prozess endete oder seine Verbindung zur Engine brach unter ihnen ab).</numerusform>
        </translation>
    </message>
    <message>
        <source>Containers left on the engine at %1 by earlier commands could not all be removed: %2</source>
        <translation>Nicht alle Container, die frühere Befehle auf der Engine unter %1 zurückgelassen haben, konnten entfernt werden: %2</translation>
    </message>
    <message>
        <source>The endpoint &quot;%1&quot; is neither a unix socket (unix:///path or /path), an SSH endpoint (ssh://user@host[:port][/socket/path]) nor a TCP endpoint (tcp://host:port).</source>
        <translation>Der Endpunkt „%1“ ist weder ein Unix-Socket (unix:///path oder /path) noch ein SSH-Endpunkt (ssh://user@host[:port][/socket/path]) noch ein TCP-Endpunkt (tcp://host:port).</translation>
    </message>
    <message>
        <source>The engine has no folder for the remote engine&apos;s socket.</source>
        <translation>Die Engine hat keinen Ordner für den Socket der entfernten Engine.</translation>
    </message>
    <message>
        <source>Plain TCP to %1 is refused: anyone on the network between could read and change the commands, their output and the workspace, and drive the engine. Set tlsCaCert (and tlsCert with the secret tlsKey) to reach it over TLS, or reach it over SSH (ssh://). Plain TCP is accepted only to a loopback address (127.0.0.0/8, ::1, localhost).</source>
        <translation>Reines TCP zu %1 wird abgewiesen: Jeder im Netzwerk dazwischen könnte die Befehle, ihre Ausgabe und den Arbeitsbereich lesen und ändern und die Engine steuern. Setzen Sie tlsCaCert (und tlsCert mit dem Geheimnis tlsKey), um sie über TLS zu erreichen, oder erreichen Sie sie über SSH (ssh://). Reines TCP wird nur zu einer Loopback-Adresse zugelassen (127.0.0.0/8, ::1, localhost).</translation>
    </message>
    <message>
        <source>A client certificate is set for %1 but no CA certificate: set tlsCaCert to the file of the CA the engine&apos;s certificate was made with, so the engine is verified.</source>
        <translation>Für %1 ist ein Client-Zertifikat gesetzt, aber kein CA-Zertifikat: Setzen Sie tlsCaCert auf die Datei der CA, mit der das Zertifikat der Engine erstellt wurde, damit die Engine geprüft wird.</translation>
    </message>
    <message>
        <source>The engine at %1 answers %2 and holds the image %3 (OCI runtimes: %4). Commands run there under %5, each in a container of its own, with the workspace copied in before and brought back after it.</source>
        <translation>Die Engine unter %1 antwortet mit %2 und hat das Image %3 (OCI-Laufzeiten: %4). Befehle laufen dort unter %5, jeder in einem eigenen Container, wobei der Arbeitsbereich vor ihm hineinkopiert und nach ihm zurückgeholt wird.</translation>
    </message>
    <message>
        <source>The connection to the engine has ended.</source>
        <translation>Die Verbindung zur Engine wurde beendet.</translation>
    </message>
    <message>
        <source>the connection to the engine was closed when the backend was deactivated</source>
        <translation>die Verbindung zur Engine wurde geschlossen, als das Backend deaktiviert wurde</translation>
    </message>
    <message>
        <source>the connection to the engine ended</source>
        <translation>die Verbindung zur Engine wurde beendet</translation>
    </message>
    <message>
        <source>the filtering proxy is forwarded to engines reached over SSH only</source>
        <translation>der Filter-Proxy wird nur an über SSH erreichte Engines weitergeleitet</translation>
    </message>
</context>
<context>
    <name>E2bApi</name>
    <message>
        <source>HTTP status %1</source>
        <translation>HTTP-Status %1</translation>
    </message>
    <message>
        <source>%1 (HTTP status %2)</source>
        <translation>%1 (HTTP-Status %2)</translation>
    </message>
    <message>
        <source>The API key was refused by the E2B API. Set the right key (sandboxctl secret set), then activate again.</source>
        <translation>Die E2B-API hat den API-Schlüssel abgelehnt. Setzen Sie den richtigen Schlüssel (sandboxctl secret set) und aktivieren Sie dann erneut.</translation>
    </message>
    <message>
        <source>%1 did not answer: %2</source>
        <translation>%1 hat nicht geantwortet: %2</translation>
    </message>
    <message>
        <source>No API key is set. Set it with sandboxctl secret set, then activate again.</source>
        <translation>Kein API-Schlüssel ist gesetzt. Setzen Sie ihn mit sandboxctl secret set und aktivieren Sie dann erneut.</translation>
    </message>
    <message>
        <source>The E2B API at %1 cannot be used: %2</source>
        <translation>Die E2B-API unter %1 kann nicht benutzt werden: %2</translation>
    </message>
    <message>
        <source>E2B did not create a sandbox of the template %1: %2</source>
        <translation>E2B hat keine Sandbox der Vorlage %1 angelegt: %2</translation>
    </message>
    <message>
        <source>The E2B API answered without a usable sandbox id.</source>
        <translation>Die E2B-API hat ohne verwendbare Sandbox-ID geantwortet.</translation>
    </message>
    <message>
        <source>E2B did not extend the sandbox&apos;s timeout: %1</source>
        <translation>E2B hat die Zeitgrenze der Sandbox nicht verlängert: %1</translation>
    </message>
    <message>
        <source>E2B did not kill the sandbox: %1</source>
        <translation>E2B hat die Sandbox nicht beendet: %1</translation>
    </message>
    <message>
        <source>E2B did not say whether the sandbox still exists: %1</source>
        <translation>E2B hat nicht mitgeteilt, ob die Sandbox noch existiert: %1</translation>
    </message>
</context>
<context>
    <name>E2bLauncher</name>
    <message>
        <source>The E2B backend is not configured.</source>
        <translation>Das E2B-Backend ist nicht konfiguriert.</translation>
    </message>
    <message>
        <source>E2B</source>
        <translation>E2B</translation>
    </message>
    <message>
        <source>Runs each command in an E2B sandbox, an isolated virtual machine in E2B&apos;s cloud, one sandbox per activation. Needs an E2B API key and a connection to the service.</source>
        <translation>Führt jeden Befehl in einer E2B-Sandbox aus, einer isolierten virtuellen Maschine in der Cloud von E2B, eine Sandbox pro Aktivierung. Benötigt einen E2B-API-Schlüssel und eine Verbindung zum Dienst.</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API-Schlüssel</translation>
    </message>
    <message>
        <source>Your E2B API key. It is kept in the keychain and sent only to the E2B API.</source>
        <translation>Ihr E2B-API-Schlüssel. Er wird im Schlüsselbund aufbewahrt und nur an die E2B-API gesendet.</translation>
    </message>
    <message>
        <source>Template</source>
        <translation>Vorlage</translation>
    </message>
    <message>
        <source>The sandbox template commands run in.</source>
        <translation>Die Sandbox-Vorlage, in der Befehle laufen.</translation>
    </message>
    <message>
        <source>Domain</source>
        <translation>Domain</translation>
    </message>
    <message>
        <source>The E2B domain: the API is at api. followed by the domain, and sandboxes are reached under it.</source>
        <translation>Die E2B-Domain: Die API liegt unter api. gefolgt von der Domain, und Sandboxes werden darunter erreicht.</translation>
    </message>
    <message>
        <source>API URL</source>
        <translation>API-URL</translation>
    </message>
    <message>
        <source>Empty: https://api. followed by the domain. HTTPS, or plain HTTP to a loopback address only.</source>
        <translation>Leer: https://api. gefolgt von der Domain. HTTPS, oder reines HTTP nur zu einer Loopback-Adresse.</translation>
    </message>
    <message>
        <source>Sandbox URL</source>
        <translation>Sandbox-URL</translation>
    </message>
    <message>
        <source>Sandbox timeout (s)</source>
        <translation>Zeitgrenze der Sandbox (s)</translation>
    </message>
    <message>
        <source>Workspace</source>
        <translation>Arbeitsbereich</translation>
    </message>
    <message>
        <source>What a command sees of your workspace.</source>
        <translation>Was ein Befehl von Ihrem Arbeitsbereich sieht.</translation>
    </message>
    <message>
        <source>Uploaded before each command, its changes brought back after it</source>
        <translation>Vor jedem Befehl hochgeladen, seine Änderungen danach zurückgeholt</translation>
    </message>
    <message>
        <source>Not uploaded: commands run in the sandbox&apos;s own home folder</source>
        <translation>Nicht hochgeladen: Befehle laufen im eigenen Home-Ordner der Sandbox</translation>
    </message>
    <message>
        <source>Network none: commands run in a sandbox created without internet access. Full: in a second sandbox of the activation, created with internet access. The sandbox reaches nothing on this computer&apos;s local network.</source>
        <translation>Netzwerk none: Befehle laufen in einer Sandbox, die ohne Internetzugang angelegt wurde. Full: in einer zweiten Sandbox der Aktivierung, angelegt mit Internetzugang. Die Sandbox erreicht nichts im lokalen Netzwerk dieses Computers.</translation>
    </message>
    <message>
        <source>Not enforced: under the allowlist network mode this backend refuses to run commands.</source>
        <translation>Nicht durchgesetzt: Im Netzwerkmodus Allowlist verweigert dieses Backend die Ausführung von Befehlen.</translation>
    </message>
    <message>
        <source>There is no channel back to this computer: commands cannot run anything on it.</source>
        <translation>Es gibt keinen Kanal zurück zu diesem Computer: Befehle können darauf nichts ausführen.</translation>
    </message>
    <message>
        <source>The E2B backend is not prepared; activate it first.</source>
        <translation>Das E2B-Backend ist nicht vorbereitet; aktivieren Sie es zuerst.</translation>
    </message>
    <message>
        <source>No command was given.</source>
        <translation>Es wurde kein Befehl angegeben.</translation>
    </message>
    <message>
        <source>The policy allows only some domains, which an E2B sandbox cannot enforce: it has either no internet access or all of it. Choose network none or full for this workspace, or another backend.</source>
        <translation>Die Richtlinie erlaubt nur einige Domains, was eine E2B-Sandbox nicht durchsetzen kann: Sie hat entweder keinen Internetzugang oder vollen. Wählen Sie für diesen Arbeitsbereich das Netzwerk „none“ oder „full“ oder ein anderes Backend.</translation>
    </message>
    <message>
        <source>Only the engine&apos;s own refusals (a command refused before it is sent to the sandbox). What the remote sandbox refuses is not observed.</source>
        <translation>Nur die eigenen Ablehnungen der Engine (ein Befehl, der abgelehnt wird, bevor er an die Sandbox geht). Was die entfernte Sandbox ablehnt, wird nicht beobachtet.</translation>
    </message>
    <message>
        <source>Empty: for E2B&apos;s own domains their one address for every sandbox (sandbox. followed by the domain), for other domains each sandbox at its own address under the domain (envd, port 49983). Otherwise one address for every sandbox. The sandbox is always named in a header. HTTPS, or plain HTTP to a loopback address only.</source>
        <translation>Leer: bei den eigenen Domains von E2B deren gemeinsame Adresse für alle Sandboxes (sandbox. gefolgt von der Domain), bei anderen Domains jede Sandbox unter ihrer eigenen Adresse unterhalb der Domain (envd, Port 49983). Sonst eine Adresse für alle Sandboxes. Die Sandbox wird immer in einem Header genannt. HTTPS, oder reines HTTP nur zu einer Loopback-Adresse.</translation>
    </message>
    <message>
        <source>How long a sandbox lives after the last command that used it ended; E2B ends it then. A command that finds its sandbox ended gets a new one, and says so.</source>
        <translation>Wie lange eine Sandbox nach dem Ende des letzten Befehls, der sie benutzt hat, bestehen bleibt; danach beendet E2B sie. Ein Befehl, der seine Sandbox beendet vorfindet, bekommt eine neue und meldet das.</translation>
    </message>
    <message>
        <source>Commands run in a remote virtual machine: no file of this computer is reachable from them. With the workspace set to sync, the workspace folder without the policy&apos;s denied paths is uploaded into the sandbox&apos;s copy of it before each command, and the command runs there; after it ends, the regular files it created or changed are written back, only where the policy lets commands write and never through a link. No control file of a repository (what makes git run code) comes back: inside a git directory that exists here only what git writes during ordinary work (objects, refs, logs, the index, HEAD and the other state files); no .git entry, nothing through a .git that is not a git directory here, no HEAD outside one and nothing in a new repository; each such file is listed on the command&apos;s error output. A file that also changed on this computer while the command ran is kept, and the sandbox&apos;s version is written beside it, its name ending in .sandbox-conflict. An execute bit the command set or cleared comes back the same way. Files the command deleted stay on this computer; links are not brought back, and each link the command made or changed is listed on its error output. A command that is killed or times out brings nothing back, and so does one whose copy of the workspace does not come back whole: its result is then status 255, and its error output says why. With the workspace set to none, nothing is uploaded and commands start in the sandbox&apos;s home folder.</source>
        <translation>Befehle laufen in einer entfernten virtuellen Maschine: Keine Datei dieses Rechners ist von ihnen aus erreichbar. Ist der Arbeitsbereich auf sync gestellt, wird der Arbeitsbereichsordner ohne die verbotenen Pfade der Richtlinie vor jedem Befehl in die Kopie der Sandbox hochgeladen, und der Befehl läuft dort; nach seinem Ende werden die regulären Dateien, die er angelegt oder geändert hat, zurückgeschrieben, nur wo die Richtlinie Befehlen das Schreiben erlaubt und nie über einen Link. Keine Steuerdatei eines Repositorys (was Git Code ausführen lässt) kommt zurück: In einem Git-Verzeichnis, das hier existiert, nur was Git bei gewöhnlicher Arbeit schreibt (Objekte, Refs, Logs, der Index, HEAD und die anderen Zustandsdateien); kein .git-Eintrag, nichts durch ein .git, das hier kein Git-Verzeichnis ist, kein HEAD außerhalb eines solchen und nichts in einem neuen Repository; jede solche Datei wird in der Fehlerausgabe des Befehls aufgeführt. Eine Datei, die sich während des Befehls auch auf diesem Computer geändert hat, bleibt erhalten, und die Version der Sandbox wird daneben geschrieben, ihr Name endet auf .sandbox-conflict. Ein Ausführungsbit, das der Befehl gesetzt oder gelöscht hat, kommt auf dieselbe Weise zurück. Vom Befehl gelöschte Dateien bleiben auf diesem Rechner; Links werden nicht zurückgebracht, und jeder Link, den der Befehl angelegt oder geändert hat, wird in seiner Fehlerausgabe aufgeführt. Ein Befehl, der beendet wird oder die Zeit überschreitet, bringt nichts zurück, ebenso einer, dessen Kopie des Arbeitsbereichs nicht vollständig zurückkommt: Sein Ergebnis ist dann Status 255, und seine Fehlerausgabe nennt den Grund. Ist der Arbeitsbereich auf none gestellt, wird nichts hochgeladen, und Befehle beginnen im Home-Ordner der Sandbox.</translation>
    </message>
    <message>
        <source>The sandbox is a virtual machine of E2B&apos;s, shared by the activation&apos;s commands: they see each other&apos;s processes and files there. Processes a command leaves running in the background may keep running until the sandbox is killed. A command the sandbox does not end within 5 seconds of its kill is no longer waited for here, and may go on running there until the sandbox ends. Every sandbox the backend created is killed when new settings replace it, when the backend is no longer used and when the engine stops (within 5 seconds); one that could not be killed is named in a warning.</source>
        <translation>Die Sandbox ist eine virtuelle Maschine von E2B, die sich die Befehle der Aktivierung teilen: Sie sehen dort gegenseitig ihre Prozesse und Dateien. Prozesse, die ein Befehl im Hintergrund laufen lässt, können weiterlaufen, bis die Sandbox beendet wird. Ein Befehl, der abgebrochen wird und den die Sandbox nicht innerhalb von 5 Sekunden beendet, wird hier nicht mehr abgewartet und kann dort weiterlaufen, bis die Sandbox endet. Jede Sandbox, die das Backend angelegt hat, wird beendet, wenn neue Einstellungen sie ersetzen, wenn das Backend nicht mehr verwendet wird und wenn die Engine beendet wird (innerhalb von 5 Sekunden); eine, die sich nicht beenden ließ, wird in einer Warnung genannt.</translation>
    </message>
</context>
<context>
    <name>E2bSandboxPool</name>
    <message>
        <source>The E2B sandbox %1 had ended (its timeout passed while it was not used); a new sandbox, %2, was created: files and processes of the old one are gone.</source>
        <translation>Die E2B-Sandbox %1 war beendet (ihre Zeitgrenze lief ab, während sie nicht benutzt wurde); eine neue Sandbox, %2, wurde angelegt: Dateien und Prozesse der alten sind verloren.</translation>
    </message>
    <message>
        <source>sandbox: %1
</source>
        <translation>sandbox: %1
</translation>
    </message>
    <message>
        <source>The E2B sandbox %1 exists but its envd did not answer.</source>
        <translation>Die E2B-Sandbox %1 existiert, aber ihr envd hat nicht geantwortet.</translation>
    </message>
    <message>
        <source>sandbox: E2B did not extend the timeout of the sandbox %1: %2
</source>
        <translation>sandbox: E2B hat die Zeitgrenze der Sandbox %1 nicht verlängert: %2
</translation>
    </message>
    <message>
        <source>These E2B sandboxes could not be deleted and may run until their timeout: %1 (%2)</source>
        <translation>Diese E2B-Sandboxes konnten nicht gelöscht werden und laufen möglicherweise bis zum Ablauf ihrer Zeitgrenze: %1 (%2)</translation>
    </message>
</context>
<context>
    <name>EngineRuntime</name>
    <message>
        <source>The runtime did not say which OCI runtimes it offers (GET /info: %1).</source>
        <translation>Die Laufzeitumgebung hat nicht gesagt, welche OCI-Laufzeiten sie anbietet (GET /info: %1).</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>The runtime at %1 has no OCI runtime &quot;%2&quot;. It offers: %3 (default: %4). Set the runtime to one of them, or leave it empty for the default.</source>
        <translation>Die Laufzeitumgebung unter %1 hat keine OCI-Laufzeit &quot;%2&quot;. Sie bietet an: %3 (Standard: %4). Wählen Sie eine davon, oder lassen Sie das Feld leer für die Standardlaufzeit.</translation>
    </message>
    <message>
        <source>not said</source>
        <translation>nicht angegeben</translation>
    </message>
    <message>
        <source>the engine&apos;s default runtime</source>
        <translation>die Standardlaufzeit der Laufzeitumgebung</translation>
    </message>
    <message>
        <source>Choose another runtime (offered: %1), or leave the runtime empty.</source>
        <translation>Wählen Sie eine andere Laufzeit (angeboten: %1), oder lassen Sie das Feld leer.</translation>
    </message>
    <message>
        <source>The OCI runtime %1 cannot run this backend&apos;s containers: %2. %3</source>
        <translation>Die OCI-Laufzeit %1 kann die Container dieses Backends nicht ausführen: %2. %3</translation>
    </message>
    <message>
        <source>the runtime could not create a container under it (%1)</source>
        <translation>die Laufzeitumgebung konnte darunter keinen Container erzeugen (%1)</translation>
    </message>
    <message>
        <source>The runtime at %1 was asked for the OCI runtime %2 but made the container under %3, so nothing runs under this setting (Podman 4.3, for one, ignores the runtime a request names: make %2 its default runtime instead, [engine] runtime in containers.conf, and leave this setting empty).</source>
        <translation>Die Laufzeitumgebung unter %1 wurde um die OCI-Laufzeit %2 gebeten, hat den Container aber unter %3 erzeugt; mit dieser Einstellung läuft daher nichts (Podman 4.3 zum Beispiel übergeht die Laufzeit, die eine Anfrage nennt: machen Sie %2 stattdessen zu seiner Standardlaufzeit, [engine] runtime in containers.conf, und lassen Sie diese Einstellung leer).</translation>
    </message>
    <message>
        <source>one it does not name</source>
        <translation>eine, die sie nicht nennt</translation>
    </message>
    <message>
        <source>it could not start a container (%1)</source>
        <translation>sie konnte keinen Container starten (%1)</translation>
    </message>
    <message>
        <source>the container of the probe did not end (%1)</source>
        <translation>der Container der Probe endete nicht (%1)</translation>
    </message>
    <message>
        <source> gVisor&apos;s kernel (the Sentry) offers no seccomp user notification (it refuses SECCOMP_FILTER_FLAG_NEW_LISTENER), which the gate needs to judge writes and connections.</source>
        <translation> Der Kernel von gVisor (der Sentry) bietet keine seccomp-Benutzerbenachrichtigung (er lehnt SECCOMP_FILTER_FLAG_NEW_LISTENER ab), die das Tor braucht, um Schreibzugriffe und Verbindungen zu beurteilen.</translation>
    </message>
    <message>
        <source>Commands cannot run confined under the OCI runtime %1, so this backend runs none there: sandbox-init&apos;s write gate, which every command runs under, ended with status %2 there: %3.%4 %5</source>
        <translation>Unter der OCI-Laufzeit %1 können Befehle nicht eingeschränkt laufen, daher führt dieses Backend dort keine aus: das Schreibtor von sandbox-init, unter dem jeder Befehl läuft, endete dort mit Status %2: %3.%4 %5</translation>
    </message>
    <message>
        <source>(it said nothing)</source>
        <translation>(es hat nichts gesagt)</translation>
    </message>
    <message>
        <source>The container runs under the OCI runtime %1, gVisor: its user-space kernel, the Sentry, serves the commands&apos; system calls and enforces the namespaces, mounts, capabilities and sandbox-init&apos;s seccomp filters above (the runtime&apos;s default seccomp profile only where runsc runs with --oci-seccomp); the host&apos;s Linux kernel serves only the Sentry&apos;s own calls.</source>
        <translation>Der Container läuft unter der OCI-Laufzeit %1, gVisor: ihr User-Space-Kernel, der Sentry, bedient die Systemaufrufe der Befehle und setzt die Namensräume, Einhängungen, Capabilities und die obigen seccomp-Filter von sandbox-init durch (das Standard-seccomp-Profil der Laufzeitumgebung nur, wo runsc mit --oci-seccomp läuft); der Linux-Kernel des Hosts bedient nur die eigenen Aufrufe des Sentry.</translation>
    </message>
    <message>
        <source>The container runs under the OCI runtime %1: the host&apos;s Linux kernel%2 enforces the namespaces, mounts, capabilities and seccomp filters above.</source>
        <translation>Der Container läuft unter der OCI-Laufzeit %1: der Linux-Kernel des Hosts%2 setzt die obigen Namensräume, Einhängungen, Capabilities und seccomp-Filter durch.</translation>
    </message>
    <message>
        <source>The container runs under the OCI runtime %1, which this backend does not know: which kernel enforces the namespaces, mounts, capabilities and seccomp filters above is that runtime&apos;s (the host&apos;s Linux kernel under runc and crun, gVisor&apos;s Sentry under runsc).</source>
        <translation>Der Container läuft unter der OCI-Laufzeit %1, die dieses Backend nicht kennt: welcher Kernel die obigen Namensräume, Einhängungen, Capabilities und seccomp-Filter durchsetzt, hängt von dieser Laufzeit ab (unter runc und crun der Linux-Kernel des Hosts, unter runsc der Sentry von gVisor).</translation>
    </message>
</context>
<context>
    <name>KeychainSecretStore</name>
    <message>
        <source>No OS keychain is reachable (Secret Service over D-Bus). Start gnome-keyring or KWallet, or allow plaintext secret storage explicitly (&apos;sandboxctl secret storage plaintext&apos;, or Studio &gt; Store Secrets in Plain Text).</source>
        <translation>Kein Schlüsselbund des Betriebssystems ist erreichbar (Secret Service über D-Bus). Starten Sie gnome-keyring oder KWallet oder erlauben Sie ausdrücklich die Speicherung von Geheimnissen im Klartext („sandboxctl secret storage plaintext“ oder Studio &gt; Geheimnisse im Klartext speichern).</translation>
    </message>
    <message>
        <source>the OS keychain (service &quot;%1&quot;)</source>
        <translation>der Schlüsselbund des Betriebssystems (Dienst „%1“)</translation>
    </message>
    <message>
        <source>The OS keychain did not answer while %1 (is it locked and waiting for a password prompt?). Unlock it and try again.</source>
        <translation>Der Schlüsselbund des Betriebssystems hat beim %1 nicht geantwortet (ist er gesperrt und wartet auf eine Passwortabfrage?). Entsperren Sie ihn und versuchen Sie es erneut.</translation>
    </message>
    <message>
        <source>The OS keychain refused access while %1 (%2). Unlock it and try again.</source>
        <translation>Der Schlüsselbund des Betriebssystems hat beim %1 den Zugriff verweigert (%2). Entsperren Sie ihn und versuchen Sie es erneut.</translation>
    </message>
    <message>
        <source>(While %1: %2)</source>
        <translation>(Beim %1: %2)</translation>
    </message>
    <message>
        <source>reading a secret</source>
        <translation>Lesen eines Geheimnisses</translation>
    </message>
    <message>
        <source>storing a secret</source>
        <translation>Speichern eines Geheimnisses</translation>
    </message>
    <message>
        <source>removing a secret</source>
        <translation>Entfernen eines Geheimnisses</translation>
    </message>
</context>
<context>
    <name>LockedJsonFile</name>
    <message>
        <source>Cannot create the configuration directory. Check its permissions.</source>
        <translation>Das Konfigurationsverzeichnis kann nicht angelegt werden. Prüfen Sie seine Berechtigungen.</translation>
    </message>
    <message>
        <source>Cannot create the lock file beside it: permission denied.</source>
        <translation>Die Sperrdatei daneben kann nicht angelegt werden: Zugriff verweigert.</translation>
    </message>
    <message>
        <source>Another process has held the lock on this file for too long; try again.</source>
        <translation>Ein anderer Prozess hält die Sperre dieser Datei schon zu lange; versuchen Sie es erneut.</translation>
    </message>
    <message>
        <source>Cannot read the file: %1</source>
        <translation>Die Datei kann nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>The file is unreadable (%1) and could not be moved aside to %2; it was left untouched. Move or repair it by hand.</source>
        <translation>Die Datei ist nicht lesbar (%1) und konnte nicht nach %2 beiseitegelegt werden; sie blieb unverändert. Verschieben oder reparieren Sie sie von Hand.</translation>
    </message>
    <message>
        <source>%1 was unreadable (%2). It was kept as %3 and defaults are used until you change a setting.</source>
        <translation>%1 war nicht lesbar (%2). Sie wurde als %3 aufbewahrt, und bis Sie eine Einstellung ändern, gelten die Standardwerte.</translation>
    </message>
    <message>
        <source>Cannot write the file: %1</source>
        <translation>Die Datei kann nicht geschrieben werden: %1</translation>
    </message>
    <message>
        <source>Cannot save the file: %1</source>
        <translation>Die Datei kann nicht gespeichert werden: %1</translation>
    </message>
</context>
<context>
    <name>PackArchive</name>
    <message>
        <source>cannot run tar to read the archive: %1</source>
        <translation>tar kann zum Lesen des Archivs nicht ausgeführt werden: %1</translation>
    </message>
    <message>
        <source>reading the archive took longer than %1 s</source>
        <translation>das Lesen des Archivs dauerte länger als %1 s</translation>
    </message>
    <message>
        <source>the archive cannot be read as a .tar.gz: %1</source>
        <translation>das Archiv kann nicht als .tar.gz gelesen werden: %1</translation>
    </message>
    <message>
        <source>the archive holds names that cannot be read safely</source>
        <translation>das Archiv enthält Namen, die nicht sicher gelesen werden können</translation>
    </message>
    <message>
        <source>the archive holds more than %1 entries</source>
        <translation>das Archiv enthält mehr als %1 Einträge</translation>
    </message>
    <message>
        <source>the archive entry &quot;%1&quot; points outside the pack</source>
        <translation>der Archiveintrag „%1“ zeigt aus dem Paket hinaus</translation>
    </message>
    <message>
        <source>the archive entry &quot;%1&quot; is not a file or a folder (links and devices are refused)</source>
        <translation>der Archiveintrag „%1“ ist weder Datei noch Ordner (Links und Geräte werden abgewiesen)</translation>
    </message>
    <message>
        <source>the archive unpacks to more than %1 MB</source>
        <translation>das Archiv entpackt sich zu mehr als %1 MB</translation>
    </message>
    <message>
        <source>%1 is not a file</source>
        <translation>%1 ist keine Datei</translation>
    </message>
    <message>
        <source>the archive holds no pack: pack.json is neither at its top nor in its one folder</source>
        <translation>das Archiv enthält kein Paket: pack.json liegt weder auf oberster Ebene noch in seinem einen Ordner</translation>
    </message>
</context>
<context>
    <name>PackFolder</name>
    <message>
        <source>%1 is not a pack: it has no pack.json</source>
        <translation>%1 ist kein Paket: Es hat keine pack.json</translation>
    </message>
    <message>
        <source>pack.json must be a regular file</source>
        <translation>pack.json muss eine reguläre Datei sein</translation>
    </message>
    <message>
        <source>the manifest is larger than %1 bytes</source>
        <translation>das Manifest ist größer als %1 Bytes</translation>
    </message>
    <message>
        <source>cannot read the manifest: %1</source>
        <translation>das Manifest kann nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>the plugin %1 named by the manifest is not a file in the pack&apos;s folder</source>
        <translation>das vom Manifest genannte Plugin %1 ist keine Datei im Ordner des Pakets</translation>
    </message>
    <message>
        <source>the plugin %1 was built for another version of Sandbox Studio (launcher API %2, this engine has %3); install the pack&apos;s build for this version</source>
        <translation>das Plugin %1 wurde für eine andere Version von Sandbox Studio gebaut (Launcher-API %2, diese Engine hat %3); installieren Sie den Build des Pakets für diese Version</translation>
    </message>
    <message>
        <source>it does not implement the atom pack interface %1</source>
        <translation>es implementiert die Atom-Pack-Schnittstelle %1 nicht</translation>
    </message>
    <message>
        <source>the plugin %1 cannot be loaded: %2</source>
        <translation>das Plugin %1 kann nicht geladen werden: %2</translation>
    </message>
    <message>
        <source>the plugin is %1 %2 from %3, but the manifest describes %4 %5 from %6</source>
        <translation>das Plugin ist %1 %2 von %3, aber das Manifest beschreibt %4 %5 von %6</translation>
    </message>
</context>
<context>
    <name>PackManager</name>
    <message>
        <source>cannot copy %1 into the pack folder: %2</source>
        <translation>%1 kann nicht in den Paketordner kopiert werden: %2</translation>
    </message>
    <message>
        <source>No pack was given.</source>
        <translation>Es wurde kein Paket angegeben.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid pack id.</source>
        <translation>„%1“ ist keine gültige Paket-ID.</translation>
    </message>
    <message>
        <source>The pack must name its publisher (without &quot;/&quot;).</source>
        <translation>Das Paket muss seinen Herausgeber nennen (ohne „/“).</translation>
    </message>
    <message>
        <source>A pack with this id is already installed. Remove it first.</source>
        <translation>Ein Paket mit dieser ID ist bereits installiert. Entfernen Sie es zuerst.</translation>
    </message>
    <message>
        <source>The pack contributes no backend.</source>
        <translation>Das Paket stellt kein Backend bereit.</translation>
    </message>
    <message>
        <source>The pack returned an empty launcher.</source>
        <translation>Das Paket hat einen leeren Launcher geliefert.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid backend kind.</source>
        <translation>„%1“ ist keine gültige Backend-Art.</translation>
    </message>
    <message>
        <source>%1 was refused: %2.</source>
        <translation>%1 wurde abgewiesen: %2.</translation>
    </message>
    <message>
        <source>%1 was refused: its manifest does not declare the kind %2.</source>
        <translation>%1 wurde abgewiesen: Sein Manifest deklariert die Art %2 nicht.</translation>
    </message>
    <message>
        <source>%1 was refused: its descriptor is not valid (%2).</source>
        <translation>%1 wurde abgewiesen: Seine Beschreibung ist ungültig (%2).</translation>
    </message>
    <message>
        <source>%1 is declared by the manifest, but the plugin does not provide it.</source>
        <translation>%1 ist im Manifest deklariert, aber das Plugin stellt es nicht bereit.</translation>
    </message>
    <message>
        <source>The pack contributes no backend the engine accepts: %1</source>
        <translation>Das Paket stellt kein Backend bereit, das die Engine annimmt: %1</translation>
    </message>
    <message>
        <source>%1 does not exist.</source>
        <translation>%1 existiert nicht.</translation>
    </message>
    <message>
        <source>%1 is neither a pack folder nor a .tar.gz of one.</source>
        <translation>%1 ist weder ein Paketordner noch ein .tar.gz eines solchen.</translation>
    </message>
    <message>
        <source>cannot create the packs folder %1</source>
        <translation>der Paketordner %1 kann nicht angelegt werden</translation>
    </message>
    <message>
        <source>cannot create a staging folder: %1</source>
        <translation>ein Bereitstellungsordner kann nicht angelegt werden: %1</translation>
    </message>
    <message>
        <source>A pack with the id &quot;%1&quot; is already installed. Remove it first.</source>
        <translation>Ein Paket mit der ID „%1“ ist bereits installiert. Entfernen Sie es zuerst.</translation>
    </message>
    <message>
        <source>the plugin %1 named by the manifest is not a file in the pack&apos;s folder</source>
        <translation>das vom Manifest genannte Plugin %1 ist keine Datei im Ordner des Pakets</translation>
    </message>
    <message>
        <source>cannot move the pack into %1</source>
        <translation>das Paket kann nicht nach %1 verschoben werden</translation>
    </message>
    <message>
        <source>The installed pack &quot;%1&quot; could not be loaded: %2</source>
        <translation>Das installierte Paket „%1“ konnte nicht geladen werden: %2</translation>
    </message>
    <message>
        <source>The pack state could not be saved: %1</source>
        <translation>Der Paketzustand konnte nicht gespeichert werden: %1</translation>
    </message>
    <message>
        <source>No pack &quot;%1&quot; is installed.</source>
        <translation>Kein Paket „%1“ ist installiert.</translation>
    </message>
    <message>
        <source>Cannot %1 the pack: %2 Nothing was changed.</source>
        <translation>Das Paket kann nicht %1 werden: %2 Nichts wurde geändert.</translation>
    </message>
    <message>
        <source>remove</source>
        <translation>entfernt</translation>
    </message>
    <message>
        <source>disable</source>
        <translation>ausgeschaltet</translation>
    </message>
    <message>
        <source>The pack &quot;%1&quot; stays as it was, but its state could not be saved again (%2); it may be %3 at the next start.</source>
        <translation>Das Paket „%1“ bleibt, wie es war, aber sein Zustand konnte nicht erneut gespeichert werden (%2); beim nächsten Start ist es möglicherweise %3.</translation>
    </message>
    <message>
        <source>missing</source>
        <translation>fehlend</translation>
    </message>
    <message>
        <source>disabled</source>
        <translation>ausgeschaltet</translation>
    </message>
    <message>
        <source>The files of the removed pack &quot;%1&quot; could not all be deleted from %2.</source>
        <translation>Die Dateien des entfernten Pakets „%1“ konnten nicht alle aus %2 gelöscht werden.</translation>
    </message>
    <message>
        <source>The pack &quot;%1&quot; is now provided by %2 instead of %3. The settings of the earlier pack were set aside and its secrets were removed.</source>
        <translation>Das Paket „%1“ wird jetzt von %2 statt von %3 bereitgestellt. Die Einstellungen des früheren Pakets wurden beiseitegelegt und seine Geheimnisse entfernt.</translation>
    </message>
</context>
<context>
    <name>PackManifest</name>
    <message>
        <source>must not be empty</source>
        <translation>darf nicht leer sein</translation>
    </message>
    <message>
        <source>is too long (%1 characters, at most %2)</source>
        <translation>ist zu lang (%1 Zeichen, höchstens %2)</translation>
    </message>
    <message>
        <source>%1 is a built-in backend and is never provided by a pack</source>
        <translation>%1 ist ein eingebautes Backend und wird nie von einem Paket bereitgestellt</translation>
    </message>
    <message>
        <source>the manifest is larger than %1 bytes</source>
        <translation>das Manifest ist größer als %1 Bytes</translation>
    </message>
    <message>
        <source>a manifest is data only</source>
        <translation>ein Manifest ist reine Daten</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid pack id; expected [a-z0-9][a-z0-9._-]{0,63}</source>
        <translation>„%1“ ist keine gültige Paket-ID; erwartet wird [a-z0-9][a-z0-9._-]{0,63}</translation>
    </message>
    <message>
        <source>must not contain &quot;/&quot;</source>
        <translation>darf kein „/“ enthalten</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a version; expected numbers separated by dots, such as 1.2.0</source>
        <translation>„%1“ ist keine Version; erwartet werden durch Punkte getrennte Zahlen, etwa 1.2.0</translation>
    </message>
    <message>
        <source>the pack needs engine API %1; this engine provides API %2</source>
        <translation>das Paket benötigt die Engine-API %1; diese Engine bietet die API %2</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not the file name of a plugin library in the pack&apos;s folder</source>
        <translation>„%1“ ist nicht der Dateiname einer Plugin-Bibliothek im Ordner des Pakets</translation>
    </message>
    <message>
        <source>the pack must contribute at least one backend kind</source>
        <translation>das Paket muss mindestens eine Backend-Art bereitstellen</translation>
    </message>
    <message>
        <source>too many kinds (%1, at most %2)</source>
        <translation>zu viele Arten (%1, höchstens %2)</translation>
    </message>
    <message>
        <source>expected a string, got %1</source>
        <translation>Zeichenkette erwartet, %1 erhalten</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid backend kind</source>
        <translation>„%1“ ist keine gültige Backend-Art</translation>
    </message>
    <message>
        <source>%1 is listed twice</source>
        <translation>%1 ist doppelt aufgeführt</translation>
    </message>
</context>
<context>
    <name>PackStateStore</name>
    <message>
        <source>expected version 1</source>
        <translation>Version 1 erwartet</translation>
    </message>
</context>
<context>
    <name>PlaintextSecretStore</name>
    <message>
        <source>expected version 1</source>
        <translation>Version 1 erwartet</translation>
    </message>
    <message>
        <source>expected an object</source>
        <translation>Objekt erwartet</translation>
    </message>
    <message>
        <source>expected a string</source>
        <translation>Zeichenkette erwartet</translation>
    </message>
</context>
<context>
    <name>QmpClient</name>
    <message>
        <source>QEMU monitor %1: %2</source>
        <translation>QEMU-Monitor %1: %2</translation>
    </message>
    <message>
        <source>the socket path is too long</source>
        <translation>der Socket-Pfad ist zu lang</translation>
    </message>
    <message>
        <source>cannot connect: %1</source>
        <translation>Verbindung nicht möglich: %1</translation>
    </message>
    <message>
        <source>the greeting is not QMP&apos;s</source>
        <translation>die Begrüßung ist nicht die von QMP</translation>
    </message>
    <message>
        <source>timed out sending a command</source>
        <translation>Zeitüberschreitung beim Senden eines Befehls</translation>
    </message>
    <message>
        <source>the connection broke: %1</source>
        <translation>die Verbindung ist abgebrochen: %1</translation>
    </message>
    <message>
        <source>an answer is not a JSON object: %1</source>
        <translation>eine Antwort ist kein JSON-Objekt: %1</translation>
    </message>
    <message>
        <source>no answer within %1 s</source>
        <translation>keine Antwort innerhalb von %1 s</translation>
    </message>
    <message>
        <source>QEMU closed the monitor</source>
        <translation>QEMU hat den Monitor geschlossen</translation>
    </message>
    <message>
        <source>an answer is larger than 4 MiB</source>
        <translation>eine Antwort ist größer als 4 MiB</translation>
    </message>
    <message>
        <source>not connected</source>
        <translation>nicht verbunden</translation>
    </message>
    <message>
        <source>%1 failed: %2</source>
        <translation>%1 fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>an answer to %1 has neither return nor error</source>
        <translation>eine Antwort auf %1 hat weder return noch error</translation>
    </message>
</context>
<context>
    <name>SandboxInitRefusal</name>
    <message>
        <source>(unnamed)</source>
        <translation>(ohne Namen)</translation>
    </message>
    <message>
        <source>host sockets: a command may connect only to the sockets its sandbox offers it (refused by sandbox-init&apos;s connect supervisor)</source>
        <translation>Host-Sockets: Ein Befehl darf sich nur mit den Sockets verbinden, die seine Sandbox ihm anbietet (abgelehnt vom Connect-Supervisor von sandbox-init)</translation>
    </message>
    <message>
        <source>repository protection: the files that make git run code, a new repository, a read-only path or a hard-linked file cannot be changed (refused at the write by sandbox-init&apos;s write gate)</source>
        <translation>Repository-Schutz: die Dateien, die Git Code ausführen lassen, ein neues Repository, ein schreibgeschützter Pfad oder eine hart verlinkte Datei können nicht geändert werden (beim Schreiben abgewiesen vom Schreibtor von sandbox-init)</translation>
    </message>
    <message>
        <source>filesystem: %1 is denied by the policy, so nothing beneath it may be written (refused at the write by sandbox-init&apos;s write gate)</source>
        <translation>Dateisystem: %1 ist durch die Richtlinie verboten, daher darf darunter nichts geschrieben werden (beim Schreiben abgewiesen vom Schreibtor von sandbox-init)</translation>
    </message>
    <message>
        <source>filesystem: only files under the policy&apos;s writable paths may change mode or times (refused by sandbox-init&apos;s metadata supervisor)</source>
        <translation>Dateisystem: nur Dateien unter den beschreibbaren Pfaden der Richtlinie dürfen Modus oder Zeitstempel ändern (abgelehnt vom Metadaten-Supervisor von sandbox-init)</translation>
    </message>
    <message>
        <source>seccomp: the policy denies %1 (refused by sandbox-init in %2)</source>
        <translation>Seccomp: die Richtlinie verweigert %1 (von sandbox-init in %2 abgewiesen)</translation>
    </message>
</context>
<context>
    <name>SshEndpoint</name>
    <message>
        <source>The endpoint &quot;%1&quot; is not an SSH endpoint ssh://user@host[:port][/socket/path]: %2</source>
        <translation>Der Endpunkt „%1“ ist kein SSH-Endpunkt ssh://benutzer@host[:port][/socket/pfad]: %2</translation>
    </message>
    <message>
        <source>it does not start with ssh://</source>
        <translation>er beginnt nicht mit ssh://</translation>
    </message>
    <message>
        <source>it names no user (user@host)</source>
        <translation>er nennt keinen Benutzer (benutzer@host)</translation>
    </message>
    <message>
        <source>the user &quot;%1&quot; holds characters a user name cannot</source>
        <translation>der Benutzer „%1“ enthält Zeichen, die in einem Benutzernamen nicht vorkommen können</translation>
    </message>
    <message>
        <source>the host &quot;%1&quot; is not a host name or address</source>
        <translation>der Host „%1“ ist weder ein Hostname noch eine Adresse</translation>
    </message>
    <message>
        <source>passwords are not accepted; SSH keys and your agent are used</source>
        <translation>Passwörter werden nicht akzeptiert; verwendet werden SSH-Schlüssel und Ihr Agent</translation>
    </message>
    <message>
        <source>it has a query or fragment</source>
        <translation>er enthält eine Query oder ein Fragment</translation>
    </message>
    <message>
        <source>the remote socket &quot;%1&quot; is not an absolute path without &apos;:&apos;</source>
        <translation>der entfernte Socket „%1“ ist kein absoluter Pfad ohne „:“</translation>
    </message>
</context>
<context>
    <name>SshReverseForward</name>
    <message>
        <source>the SSH connection was closed</source>
        <translation>die SSH-Verbindung wurde geschlossen</translation>
    </message>
    <message>
        <source>ssh could not be started</source>
        <translation>ssh konnte nicht gestartet werden</translation>
    </message>
    <message>
        <source>ssh -O %1 did not succeed</source>
        <translation>ssh -O %1 war nicht erfolgreich</translation>
    </message>
    <message>
        <source>The SSH connection to the engine has ended.</source>
        <translation>Die SSH-Verbindung zur Engine wurde beendet.</translation>
    </message>
    <message>
        <source>The proxy&apos;s socket %1 cannot be forwarded over SSH.</source>
        <translation>Der Socket %1 des Proxys kann nicht über SSH weitergeleitet werden.</translation>
    </message>
    <message>
        <source>The ssh program (OpenSSH&apos;s client) is not installed here.</source>
        <translation>Das Programm ssh (der Client von OpenSSH) ist hier nicht installiert.</translation>
    </message>
    <message>
        <source>No pipe for ssh: %1</source>
        <translation>Keine Pipe für ssh: %1</translation>
    </message>
    <message>
        <source>ssh could not be started.</source>
        <translation>ssh konnte nicht gestartet werden.</translation>
    </message>
    <message>
        <source>The remote host did not make a private folder for the filtering proxy&apos;s socket (mktemp -d under umask 077 over SSH): %1</source>
        <translation>Der entfernte Host hat keinen privaten Ordner für den Socket des Filter-Proxys angelegt (mktemp -d unter umask 077 über SSH): %1</translation>
    </message>
    <message>
        <source>no answer</source>
        <translation>keine Antwort</translation>
    </message>
    <message>
        <source>The remote host&apos;s sshd did not forward the filtering proxy&apos;s socket (remote stream-local forwarding, which sshd_config&apos;s AllowStreamLocalForwarding and DisableForwarding govern): %1</source>
        <translation>Der sshd des entfernten Hosts hat den Socket des Filter-Proxys nicht weitergeleitet (Remote-Stream-Local-Weiterleitung, die AllowStreamLocalForwarding und DisableForwarding in sshd_config steuern): %1</translation>
    </message>
    <message>
        <source>No thread to watch the filtering proxy&apos;s forward: %1</source>
        <translation>Kein Thread zum Überwachen der Weiterleitung des Filter-Proxys: %1</translation>
    </message>
</context>
<context>
    <name>SshTunnel</name>
    <message>
        <source>The SSH connection to %1 ended: %2</source>
        <translation>Die SSH-Verbindung zu %1 wurde beendet: %2</translation>
    </message>
    <message>
        <source>DNS: the host name %1 could not be resolved (%2). Check the host in the endpoint.</source>
        <translation>DNS: Der Hostname %1 konnte nicht aufgelöst werden (%2). Prüfen Sie den Host im Endpunkt.</translation>
    </message>
    <message>
        <source>Host key: the key %1 presents is not the one your known_hosts holds for it. Someone may be intercepting the connection, or the host&apos;s key was replaced: verify the new key with the host&apos;s administrator, then replace the old entry (ssh-keygen -R).</source>
        <translation>Hostschlüssel: Der Schlüssel, den %1 vorlegt, ist nicht der, den Ihre known_hosts für diesen Host enthält. Möglicherweise fängt jemand die Verbindung ab, oder der Schlüssel des Hosts wurde ersetzt: Prüfen Sie den neuen Schlüssel mit dem Administrator des Hosts und ersetzen Sie dann den alten Eintrag (ssh-keygen -R).</translation>
    </message>
    <message>
        <source>Host key: %1 is not in your known_hosts, and host keys are always checked. Verify its key and add it (connect once with ssh -p %2 %3@%1).</source>
        <translation>Hostschlüssel: %1 steht nicht in Ihren known_hosts, und Hostschlüssel werden immer geprüft. Prüfen Sie seinen Schlüssel und fügen Sie ihn hinzu (verbinden Sie sich einmal mit ssh -p %2 %3@%1).</translation>
    </message>
    <message>
        <source>SSH authentication: %1 refused the keys offered for %2 (%3). Add your public key to the remote user&apos;s authorized_keys, load it into your SSH agent, or set the identity file.</source>
        <translation>SSH-Authentifizierung: %1 hat die für %2 angebotenen Schlüssel abgelehnt (%3). Fügen Sie Ihren öffentlichen Schlüssel zu den authorized_keys des entfernten Benutzers hinzu, laden Sie ihn in Ihren SSH-Agenten oder legen Sie die Identitätsdatei fest.</translation>
    </message>
    <message>
        <source>SSH connection: %1 port %2 cannot be reached (%3).</source>
        <translation>SSH-Verbindung: %1 Port %2 ist nicht erreichbar (%3).</translation>
    </message>
    <message>
        <source>Remote socket: the SSH connection to %1 works, but no engine answers on %2 there (%3). Start the engine&apos;s service on that host (podman system service, or Docker), or correct the socket path in the endpoint.</source>
        <translation>Entfernter Socket: Die SSH-Verbindung zu %1 funktioniert, aber dort antwortet keine Engine auf %2 (%3). Starten Sie den Dienst der Engine auf diesem Host (podman system service oder Docker) oder korrigieren Sie den Socket-Pfad im Endpunkt.</translation>
    </message>
    <message>
        <source>The endpoint %1 needs the ssh program (OpenSSH&apos;s client), which is not installed here.</source>
        <translation>Der Endpunkt %1 benötigt das Programm ssh (den Client von OpenSSH), das hier nicht installiert ist.</translation>
    </message>
    <message>
        <source>The folder %1 has too long a path for a socket.</source>
        <translation>Der Pfad des Ordners %1 ist für einen Socket zu lang.</translation>
    </message>
    <message>
        <source>ssh could not be started: %1</source>
        <translation>ssh konnte nicht gestartet werden: %1</translation>
    </message>
    <message>
        <source>ssh to %1 ended without saying why.</source>
        <translation>ssh zu %1 endete ohne Angabe eines Grundes.</translation>
    </message>
    <message>
        <source>SSH connection: %1 port %2 did not answer within %3 seconds.</source>
        <translation>SSH-Verbindung: %1 Port %2 hat nicht innerhalb von %3 Sekunden geantwortet.</translation>
    </message>
    <message>
        <source>over SSH</source>
        <translation>über SSH</translation>
    </message>
</context>
<context>
    <name>SyncedWorkspace</name>
    <message>
        <source>cannot change the permissions of %1: %2</source>
        <translation>die Berechtigungen von %1 können nicht geändert werden: %2</translation>
    </message>
    <message>
        <source>%1 is not a folder of the workspace</source>
        <translation>%1 ist kein Ordner des Arbeitsbereichs</translation>
    </message>
    <message>
        <source>cannot create the folder %1</source>
        <translation>der Ordner %1 kann nicht angelegt werden</translation>
    </message>
    <message>
        <source>%1 is a link or a folder on this computer</source>
        <translation>%1 ist auf diesem Computer ein Link oder ein Ordner</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>%1 (a link, to %2; links are not brought back)</source>
        <translation>%1 (ein Link auf %2; Links werden nicht zurückgeholt)</translation>
    </message>
    <message>
        <source>%1 (its execute bit changed, and the policy, the repository rules or a change on this computer keep it as it is here)</source>
        <translation>%1 (das Ausführungsbit wurde geändert, aber die Richtlinie, die Regeln für Repositorys oder eine Änderung auf diesem Computer lassen es so, wie es hier ist)</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1 (the policy does not let commands write it)</source>
        <translation>%1 (die Richtlinie erlaubt Befehlen nicht, es zu schreiben)</translation>
    </message>
    <message>
        <source>%1 (changed on this computer too, and %2: %3)</source>
        <translation>%1 (auch auf diesem Computer geändert, und %2: %3)</translation>
    </message>
</context>
<context>
    <name>TcpEndpoint</name>
    <message>
        <source>The endpoint &quot;%1&quot; is not a TCP endpoint tcp://host:port: %2</source>
        <translation>Der Endpunkt „%1“ ist kein TCP-Endpunkt tcp://host:port: %2</translation>
    </message>
    <message>
        <source>it does not start with tcp://</source>
        <translation>er beginnt nicht mit tcp://</translation>
    </message>
    <message>
        <source>the host &quot;%1&quot; is not a host name or address</source>
        <translation>der Host „%1“ ist weder ein Hostname noch eine Adresse</translation>
    </message>
    <message>
        <source>it names no port (Docker&apos;s TLS port is 2376)</source>
        <translation>er nennt keinen Port (der TLS-Port von Docker ist 2376)</translation>
    </message>
    <message>
        <source>a user or password is not accepted; the client certificate identifies you</source>
        <translation>ein Benutzer oder Passwort wird nicht angenommen; das Client-Zertifikat weist Sie aus</translation>
    </message>
    <message>
        <source>it has a path</source>
        <translation>er enthält einen Pfad</translation>
    </message>
    <message>
        <source>it has a query or fragment</source>
        <translation>er enthält eine Query oder ein Fragment</translation>
    </message>
</context>
<context>
    <name>TlsRelay</name>
    <message>
        <source>The connection to the engine at %1 broke: %2</source>
        <translation>Die Verbindung zur Engine unter %1 ist abgebrochen: %2</translation>
    </message>
    <message>
        <source>DNS: the host name %1 could not be resolved (%2). Check the host in the endpoint.</source>
        <translation>DNS: Der Hostname %1 konnte nicht aufgelöst werden (%2). Prüfen Sie den Host im Endpunkt.</translation>
    </message>
    <message>
        <source>The connection was closed.</source>
        <translation>Die Verbindung wurde geschlossen.</translation>
    </message>
    <message>
        <source>Connection refused: nothing listens on %1 port %2. Start the engine&apos;s TLS service there (or correct the port in the endpoint).</source>
        <translation>Verbindung abgewiesen: Auf %1 Port %2 lauscht nichts. Starten Sie dort den TLS-Dienst der Engine (oder korrigieren Sie den Port im Endpunkt).</translation>
    </message>
    <message>
        <source>Connection: %1 port %2 did not answer within %3 seconds.</source>
        <translation>Verbindung: %1 Port %2 hat nicht innerhalb von %3 Sekunden geantwortet.</translation>
    </message>
    <message>
        <source>Connection: %1 port %2 cannot be reached (%3).</source>
        <translation>Verbindung: %1 Port %2 ist nicht erreichbar (%3).</translation>
    </message>
    <message>
        <source>TLS verification: the certificate the engine at %1 presents does not name %2, the host in the endpoint, and host names are always checked. Use the name the certificate is made for, or have one made that names this host.</source>
        <translation>TLS-Prüfung: Das Zertifikat, das die Engine unter %1 vorlegt, nennt nicht %2, den Host im Endpunkt, und Hostnamen werden immer geprüft. Verwenden Sie den Namen, für den das Zertifikat erstellt ist, oder lassen Sie eines erstellen, das diesen Host nennt.</translation>
    </message>
    <message>
        <source>TLS verification: the certificate the engine at %1 presents is not valid now (%2). Renew it on the engine&apos;s host.</source>
        <translation>TLS-Prüfung: Das Zertifikat, das die Engine unter %1 vorlegt, ist derzeit nicht gültig (%2). Erneuern Sie es auf dem Host der Engine.</translation>
    </message>
    <message>
        <source>TLS verification: the certificate the engine at %1 presents is not signed by the CA in tlsCaCert (%2): %3. Set tlsCaCert to the CA the engine&apos;s certificate was made with.</source>
        <translation>TLS-Prüfung: Das Zertifikat, das die Engine unter %1 vorlegt, ist nicht von der CA in tlsCaCert (%2) signiert: %3. Setzen Sie tlsCaCert auf die CA, mit der das Zertifikat der Engine erstellt wurde.</translation>
    </message>
    <message>
        <source>TLS client certificate: the engine at %1 asks for a client certificate and none is set (%2). Set tlsCert, and store its key as the secret tlsKey.</source>
        <translation>TLS-Client-Zertifikat: Die Engine unter %1 verlangt ein Client-Zertifikat, und keines ist gesetzt (%2). Setzen Sie tlsCert und speichern Sie seinen Schlüssel als Geheimnis tlsKey.</translation>
    </message>
    <message>
        <source>TLS client certificate: the engine at %1 refused the client certificate in tlsCert (%2). It must be made with a CA the engine trusts, and be valid.</source>
        <translation>TLS-Client-Zertifikat: Die Engine unter %1 hat das Client-Zertifikat in tlsCert abgewiesen (%2). Es muss mit einer CA erstellt sein, der die Engine vertraut, und gültig sein.</translation>
    </message>
    <message>
        <source>TLS: the connection to the engine at %1 failed (%2).</source>
        <translation>TLS: Die Verbindung zur Engine unter %1 ist fehlgeschlagen (%2).</translation>
    </message>
    <message>
        <source>TLS client certificate: the engine at %1 ended the connection right after the handshake, before answering (%2): it most likely refused the client certificate in tlsCert, which must be made with a CA the engine trusts, and be valid.</source>
        <translation>TLS-Client-Zertifikat: Die Engine unter %1 hat die Verbindung direkt nach dem Handshake beendet, bevor sie antwortete (%2): Sehr wahrscheinlich hat sie das Client-Zertifikat in tlsCert abgewiesen, das mit einer CA erstellt sein muss, der die Engine vertraut, und gültig sein muss.</translation>
    </message>
    <message>
        <source>TLS client certificate: the engine at %1 ended the connection right after the handshake, before answering (%2): it most likely asks for a client certificate, and none is set. Set tlsCert, and store its key as the secret tlsKey.</source>
        <translation>TLS-Client-Zertifikat: Die Engine unter %1 hat die Verbindung direkt nach dem Handshake beendet, bevor sie antwortete (%2): Sehr wahrscheinlich verlangt sie ein Client-Zertifikat, und keines ist gesetzt. Setzen Sie tlsCert und speichern Sie seinen Schlüssel als Geheimnis tlsKey.</translation>
    </message>
    <message>
        <source>TLS: the engine at %1 did not finish the handshake within %2 seconds.</source>
        <translation>TLS: Die Engine unter %1 hat den Handshake nicht innerhalb von %2 Sekunden abgeschlossen.</translation>
    </message>
</context>
<context>
    <name>TlsTunnel</name>
    <message>
        <source>The %1 file %2 (%3) cannot be read: %4</source>
        <translation>Die Datei %2 (%3) für das %1 kann nicht gelesen werden: %4</translation>
    </message>
    <message>
        <source>The %1 file %2 (%3) holds no PEM certificate.</source>
        <translation>Die Datei %2 (%3) für das %1 enthält kein PEM-Zertifikat.</translation>
    </message>
    <message>
        <source>TLS cannot be set up here (OpenSSL).</source>
        <translation>TLS kann hier nicht eingerichtet werden (OpenSSL).</translation>
    </message>
    <message>
        <source>CA certificate</source>
        <translation>CA-Zertifikat</translation>
    </message>
    <message>
        <source>client certificate</source>
        <translation>Client-Zertifikat</translation>
    </message>
    <message>
        <source>The client certificate&apos;s key (the secret tlsKey) is not stored. Store its PEM text: sandboxctl secret set atom-pack:power-pack:docker tlsKey &lt; key.pem</source>
        <translation>Der Schlüssel des Client-Zertifikats (das Geheimnis tlsKey) ist nicht gespeichert. Speichern Sie seinen PEM-Text: sandboxctl secret set atom-pack:power-pack:docker tlsKey &lt; key.pem</translation>
    </message>
    <message>
        <source>The client certificate&apos;s key (the secret tlsKey) could not be read: %1</source>
        <translation>Der Schlüssel des Client-Zertifikats (das Geheimnis tlsKey) konnte nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>The secret tlsKey is not a private key in PEM form without a passphrase.</source>
        <translation>Das Geheimnis tlsKey ist kein privater Schlüssel in PEM-Form ohne Passphrase.</translation>
    </message>
    <message>
        <source>The secret tlsKey is not the key of the client certificate in %1 (tlsCert).</source>
        <translation>Das Geheimnis tlsKey ist nicht der Schlüssel des Client-Zertifikats in %1 (tlsCert).</translation>
    </message>
    <message>
        <source>The folder %1 has too long a path for a socket.</source>
        <translation>Der Pfad des Ordners %1 ist für einen Socket zu lang.</translation>
    </message>
    <message>
        <source>Cannot listen on %1: %2</source>
        <translation>Auf %1 kann nicht gelauscht werden: %2</translation>
    </message>
    <message>
        <source>The TLS connection&apos;s thread could not be started.</source>
        <translation>Der Thread der TLS-Verbindung konnte nicht gestartet werden.</translation>
    </message>
    <message>
        <source>over plain TCP (loopback)</source>
        <translation>über reines TCP (Loopback)</translation>
    </message>
    <message>
        <source>over TLS</source>
        <translation>über TLS</translation>
    </message>
</context>
<context>
    <name>VmLauncher</name>
    <message>
        <source>Virtual machine</source>
        <translation>Virtuelle Maschine</translation>
    </message>
    <message>
        <source>Runs each command in a lightweight virtual machine with its own kernel.</source>
        <translation>Führt jeden Befehl in einer leichtgewichtigen virtuellen Maschine mit eigenem Kernel aus.</translation>
    </message>
    <message>
        <source>Hypervisor</source>
        <translation>Hypervisor</translation>
    </message>
    <message>
        <source>Automatic picks QEMU on Linux, vfkit on macOS and Hyper-V on Windows.</source>
        <translation>Automatisch wählt QEMU unter Linux, vfkit unter macOS und Hyper-V unter Windows.</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>Automatisch</translation>
    </message>
    <message>
        <source>QEMU</source>
        <translation>QEMU</translation>
    </message>
    <message>
        <source>vfkit</source>
        <translation>vfkit</translation>
    </message>
    <message>
        <source>Hyper-V</source>
        <translation>Hyper-V</translation>
    </message>
    <message>
        <source>Memory (MiB)</source>
        <translation>Speicher (MiB)</translation>
    </message>
    <message>
        <source>Virtual CPUs</source>
        <translation>Virtuelle CPUs</translation>
    </message>
    <message>
        <source>Guest kernel</source>
        <translation>Gast-Kernel</translation>
    </message>
    <message>
        <source>Empty: the newest kernel in /boot that has the 9p and virtio modules.</source>
        <translation>Leer: der neueste Kernel in /boot, der die Module für 9p und virtio hat.</translation>
    </message>
    <message>
        <source>Guest initramfs</source>
        <translation>Gast-Initramfs</translation>
    </message>
    <message>
        <source>Empty: assembled by the engine from busybox, the kernel&apos;s modules and the verified helpers.</source>
        <translation>Leer: von der Engine aus busybox, den Modulen des Kernels und den geprüften Hilfsprogrammen zusammengestellt.</translation>
    </message>
    <message>
        <source>Helper download location</source>
        <translation>Herkunft der Hilfsprogramme</translation>
    </message>
    <message>
        <source>Where the guest helpers are fetched from on first use (http, https or file URL). Empty: the release&apos;s own location. Each one is checked against the digest pinned in this release.</source>
        <translation>Woher die Gast-Hilfsprogramme bei der ersten Nutzung geholt werden (http-, https- oder file-URL). Leer: der eigene Ort des Releases. Jedes wird gegen die in diesem Release festgelegte Prüfsumme geprüft.</translation>
    </message>
    <message>
        <source>Cache a boot baseline</source>
        <translation>Boot-Baseline zwischenspeichern</translation>
    </message>
    <message>
        <source>Keep a snapshot taken after a trusted guest boot to start workloads faster.</source>
        <translation>Einen Snapshot nach einem vertrauenswürdigen Gast-Boot aufbewahren, um Aufgaben schneller zu starten.</translation>
    </message>
    <message>
        <source>Inactive baselines kept</source>
        <translation>Aufbewahrte inaktive Baselines</translation>
    </message>
    <message>
        <source>Baseline cache size limit (bytes)</source>
        <translation>Größengrenze des Baseline-Caches (Bytes)</translation>
    </message>
    <message>
        <source>a VM (QEMU on Linux; KVM when a KVM boot works, else TCG software emulation: decided at activation)</source>
        <translation>eine VM (QEMU unter Linux; KVM, wenn ein KVM-Boot funktioniert, sonst TCG-Software-Emulation: bei der Aktivierung entschieden)</translation>
    </message>
    <message>
        <source>a VM (QEMU with KVM hardware virtualization)</source>
        <translation>eine VM (QEMU mit KVM-Hardwarevirtualisierung)</translation>
    </message>
    <message>
        <source>a VM (QEMU with TCG software emulation%1)</source>
        <translation>eine VM (QEMU mit TCG-Software-Emulation%1)</translation>
    </message>
    <message>
        <source>unknown driver &quot;%1&quot; (expected auto, qemu, vfkit or hyperv)</source>
        <translation>unbekannter Treiber „%1“ (erwartet: auto, qemu, vfkit oder hyperv)</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not an http, https or file URL</source>
        <translation>„%1“ ist keine http-, https- oder file-URL</translation>
    </message>
    <message>
        <source>%1 is not a file</source>
        <translation>%1 ist keine Datei</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>the launcher is not attached to an engine</source>
        <translation>der Launcher ist keiner Engine zugeordnet</translation>
    </message>
    <message>
        <source>; /dev/kvm is not usable</source>
        <translation>; /dev/kvm ist nicht benutzbar</translation>
    </message>
    <message>
        <source>; a KVM boot did not reach the guest agent on this host: %1</source>
        <translation>; ein KVM-Boot hat auf diesem Host den Gast-Agenten nicht erreicht: %1</translation>
    </message>
    <message>
        <source>cannot create a directory for the VM under %1</source>
        <translation>unter %1 kann kein Verzeichnis für die VM angelegt werden</translation>
    </message>
    <message>
        <source>cannot write the VM&apos;s initramfs %1</source>
        <translation>die Initramfs %1 der VM kann nicht geschrieben werden</translation>
    </message>
    <message>
        <source>baselines unavailable with %1: %2; cold boot</source>
        <translation>Baselines mit %1 nicht verfügbar: %2; Kaltstart</translation>
    </message>
    <message>
        <source>restored from baseline %1</source>
        <translation>aus Baseline %1 wiederhergestellt</translation>
    </message>
    <message>
        <source>baseline invalid: driver failure on restore (%1); cold boot</source>
        <translation>Baseline ungültig: Treiberfehler bei der Wiederherstellung (%1); Kaltstart</translation>
    </message>
    <message>
        <source>no baseline yet; cold boot</source>
        <translation>noch keine Baseline; Kaltstart</translation>
    </message>
    <message>
        <source>%1; cold boot</source>
        <translation>%1; Kaltstart</translation>
    </message>
    <message>
        <source>baseline invalid: %1; cold boot</source>
        <translation>Baseline ungültig: %1; Kaltstart</translation>
    </message>
    <message>
        <source>baseline saved</source>
        <translation>Baseline gespeichert</translation>
    </message>
    <message>
        <source>baseline not saved: %1</source>
        <translation>Baseline nicht gespeichert: %1</translation>
    </message>
    <message>
        <source>%1 VMs are already running commands for other workspaces or policies; wait for them to finish</source>
        <translation>%1 VMs führen bereits Befehle für andere Arbeitsbereiche oder Richtlinien aus; warten Sie, bis sie fertig sind</translation>
    </message>
    <message>
        <source>the VM backend has not been prepared</source>
        <translation>das VM-Backend wurde nicht vorbereitet</translation>
    </message>
    <message>
        <source>the VM backend has not been prepared; nothing was run</source>
        <translation>das VM-Backend wurde nicht vorbereitet; nichts wurde ausgeführt</translation>
    </message>
    <message>
        <source>the command, its environment or its directory contains a NUL character</source>
        <translation>der Befehl, seine Umgebung oder sein Verzeichnis enthält ein NUL-Zeichen</translation>
    </message>
    <message>
        <source>cannot read the guest initramfs %1</source>
        <translation>die Initramfs des Gasts %1 kann nicht gelesen werden</translation>
    </message>
    <message>
        <source>cannot create %1</source>
        <translation>%1 kann nicht angelegt werden</translation>
    </message>
    <message>
        <source>workspace VM not restored: network allowlist VMs are booted with their proxy port; cold boot</source>
        <translation>Arbeitsbereichs-VM nicht wiederhergestellt: VMs mit Netzwerkmodus Allowlist werden mit ihrem Proxy-Port gestartet; Kaltstart</translation>
    </message>
    <message>
        <source>workspace VM not restored: an earlier restore failed (%1); cold boot</source>
        <translation>Arbeitsbereichs-VM nicht wiederhergestellt: eine frühere Wiederherstellung ist fehlgeschlagen (%1); Kaltstart</translation>
    </message>
    <message>
        <source>workspace VM not restored: %1; cold boot</source>
        <translation>Arbeitsbereichs-VM nicht wiederhergestellt: %1; Kaltstart</translation>
    </message>
    <message>
        <source>workspace VM restore discarded: %1; cold boot</source>
        <translation>Wiederherstellung der Arbeitsbereichs-VM verworfen: %1; Kaltstart</translation>
    </message>
    <message>
        <source>baseline invalid: driver failure on restore (%1)</source>
        <translation>Baseline ungültig: Treiberfehler bei der Wiederherstellung (%1)</translation>
    </message>
    <message>
        <source>Full is unavailable here (%1): a command under it is refused and nothing is run</source>
        <translation>Vollständig ist hier nicht verfügbar (%1): ein Befehl darunter wird abgelehnt und nichts wird ausgeführt</translation>
    </message>
    <message>
        <source>Full (QEMU on Linux with slirp4netns and user namespaces; elsewhere a command under it is refused and nothing is run): the VM&apos;s one NIC is on QEMU&apos;s user-mode network (IPv4 only, nothing forwarded into the guest); QEMU runs in a user and network namespace of its own whose only way out is slirp4netns, its mapping to the host&apos;s loopback disabled; that namespace&apos;s routing table, set before QEMU starts (QEMU holds no capability there, so it cannot change it), prohibits every loopback, private, carrier-grade NAT, link-local, multicast, reserved and unspecified IPv4 range and the host&apos;s own IPv4 addresses (those it had when the VM booted), so the host and internal networks are unreachable and public addresses are reachable; the guest&apos;s gateway %1 is that namespace&apos;s own loopback, where nothing listens. An internal IPv4 address or one of the host&apos;s, listed without a port in the policy&apos;s allowed domains, is reachable on every port; an IPv4 address in its denied domains is not (deny wins); names in either list change nothing. A policy naming a loopback address, an internal address with a port or one in the VM&apos;s own networks (%2/%3, %4/%5) is refused and nothing is run. Name lookups go to slirp4netns&apos;s DNS forwarder %6, which asks the host&apos;s resolver: besides a host address the policy names, the one service of the host the guest reaches</source>
        <translation>Vollständig (QEMU unter Linux mit slirp4netns und User-Namespaces; anderswo wird ein Befehl darunter abgelehnt und nichts ausgeführt): die einzige Netzwerkkarte der VM hängt an QEMUs User-Mode-Netz (nur IPv4, nichts wird in den Gast weitergeleitet); QEMU läuft in einem eigenen User- und Netzwerk-Namespace, dessen einziger Weg nach draußen slirp4netns ist, dessen Abbildung auf das Loopback des Hosts abgeschaltet ist; die Routing-Tabelle dieses Namespace, gesetzt bevor QEMU startet (QEMU hat dort keine Capability und kann sie daher nicht ändern), verbietet jeden Loopback-, privaten, Carrier-Grade-NAT-, Link-Local-, Multicast-, reservierten und unspezifizierten IPv4-Bereich sowie die eigenen IPv4-Adressen des Hosts (die er beim Start der VM hatte), sodass Host und interne Netze unerreichbar und öffentliche Adressen erreichbar sind; das Gateway %1 des Gasts ist das eigene Loopback dieses Namespace, auf dem nichts lauscht. Eine interne IPv4-Adresse oder eine des Hosts, ohne Port in den erlaubten Domains der Richtlinie aufgeführt, ist auf jedem Port erreichbar; eine IPv4-Adresse in ihren verbotenen Domains ist es nicht (Verbot gewinnt); Namen in beiden Listen ändern nichts. Eine Richtlinie, die eine Loopback-Adresse, eine interne Adresse mit Port oder eine in den eigenen Netzen der VM (%2/%3, %4/%5) nennt, wird abgelehnt und nichts wird ausgeführt. Namensauflösungen gehen an den DNS-Weiterleiter %6 von slirp4netns, der den Resolver des Hosts fragt: neben einer Host-Adresse, die die Richtlinie nennt, der einzige Dienst des Hosts, den der Gast erreicht</translation>
    </message>
    <message>
        <source>none: the VM has no network device. Allowlist: no network device either; the guest&apos;s only way out is its network forwarder (sandbox-vm-gvforwarder, a verified helper) on the guest&apos;s 127.0.0.1:3128, whose connections travel over a virtio-serial port of their own to the engine, which connects each one to its filtering proxy and to nothing else (QEMU only). %1</source>
        <translation>Keins: die VM hat kein Netzwerkgerät. Zulassungsliste: ebenfalls kein Netzwerkgerät; der einzige Weg des Gasts nach draußen ist sein Netzwerk-Weiterleiter (sandbox-vm-gvforwarder, ein geprüftes Hilfsprogramm) auf 127.0.0.1:3128 im Gast, dessen Verbindungen über einen eigenen virtio-serial-Port zur Engine laufen, die jede nur mit ihrem filternden Proxy verbindet und mit nichts sonst (nur QEMU). %1</translation>
    </message>
    <message>
        <source>under network allowlist the engine&apos;s filtering proxy is the VM&apos;s only way out: commands get HTTP_PROXY, HTTPS_PROXY and ALL_PROXY (and their lower-case forms) pointing at the forwarder (HTTP, HTTPS through CONNECT, SOCKS5), set after the request&apos;s own environment; the proxy connects only to the policy&apos;s allowed domains and addresses, a denied entry winning. Nothing else leaves the VM, name lookups included (the proxy resolves names). Each set of domain rules gets a VM of its own. Under network full only IPv4 addresses in the lists count (see network), and each set of lists gets a VM of its own too</source>
        <translation>unter Netzwerk Zulassungsliste ist der filternde Proxy der Engine der einzige Weg aus der VM: Befehle erhalten HTTP_PROXY, HTTPS_PROXY und ALL_PROXY (und ihre kleingeschriebenen Formen), die auf den Weiterleiter zeigen (HTTP, HTTPS über CONNECT, SOCKS5), gesetzt nach der eigenen Umgebung der Anfrage; der Proxy verbindet nur zu den erlaubten Domains und Adressen der Richtlinie, wobei ein verbotener Eintrag gewinnt. Nichts anderes verlässt die VM, auch keine Namensauflösung (der Proxy löst Namen auf). Jeder Satz Domain-Regeln erhält eine eigene VM. Unter Netzwerk vollständig zählen nur IPv4-Adressen in den Listen (siehe Netzwerk), und auch jeder Satz Listen erhält eine eigene VM</translation>
    </message>
    <message>
        <source>workspace VM not restored: network full VMs are booted in their own network namespace with their NIC; cold boot</source>
        <translation>Arbeitsbereichs-VM nicht wiederhergestellt: VMs mit Netzwerk vollständig werden in ihrem eigenen Netzwerk-Namespace mit ihrer Netzwerkkarte gestartet; Kaltstart</translation>
    </message>
    <message>
        <source>network &quot;full&quot; is unavailable in the VM backend here: %1; nothing was run</source>
        <translation>Netzwerk „vollständig“ ist im VM-Backend hier nicht verfügbar: %1; nichts wurde ausgeführt</translation>
    </message>
    <message>
        <source>; with baselines (QEMU under TCG) the VM a baseline is saved from and the VMs restored from it carry %1 share devices from boot, each one no share of the VM fills backed by an empty directory of the engine&apos;s, read-only in QEMU itself</source>
        <translation>; mit Baselines (QEMU unter TCG) tragen die VM, aus der eine Baseline gesichert wird, und die daraus wiederhergestellten VMs vom Start an %1 Freigabegeräte, jedes, das keine Freigabe der VM belegt, mit einem leeren Verzeichnis der Engine hinterlegt, in QEMU selbst schreibgeschützt</translation>
    </message>
    <message>
        <source>workspace VM restored from baseline %1, %2 shares attached (engine %3 ms, QEMU start and state load %4 ms, handshake %5 ms, shares mounted %6 ms)</source>
        <translation>Arbeitsbereichs-VM aus Baseline %1 wiederhergestellt, %2 Freigaben angebunden (Engine %3 ms, QEMU-Start und Laden des Zustands %4 ms, Handshake %5 ms, Freigaben eingehängt %6 ms)</translation>
    </message>
    <message>
        <source>cannot use the engine&apos;s runtime directory for the VM: %1</source>
        <translation>das Laufzeitverzeichnis der Engine ist für die VM nicht nutzbar: %1</translation>
    </message>
    <message>
        <source>cannot read the certificate bundle %1: %2</source>
        <translation>das Zertifikatsbündel %1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>nothing of the host is reachable from the guest whatever the policy says (deny, ask and allow alike): host sockets are not reachable through 9p; the only channels are the exec agent&apos;s (which, with an SSH agent in the policy, carries a command&apos;s agent connections to that command&apos;s filtering agent and nowhere else) and, under network allowlist, the forwarder&apos;s, which the engine connects only to its filtering proxy; under network full the NIC reaches neither the host&apos;s loopback nor its own addresses, except its name resolver and an address of the host the policy names</source>
        <translation>nichts vom Host ist aus dem Gast erreichbar, was immer die Richtlinie sagt (deny, ask und allow gleichermaßen): Host-Sockets sind über 9p nicht erreichbar; die einzigen Kanäle sind der des Ausführungsagenten (der bei einem SSH-Agenten in der Richtlinie die Agentenverbindungen eines Befehls zum filternden Agenten dieses Befehls trägt und nirgendwohin sonst) und im Netzwerkmodus Allowlist der des Weiterleiters, den die Engine nur mit ihrem filternden Proxy verbindet; im Netzwerkmodus Full erreicht die Netzwerkkarte weder das Loopback des Hosts noch seine eigenen Adressen, außer seinem Namensauflöser und einer Adresse des Hosts, die die Richtlinie nennt</translation>
    </message>
    <message>
        <source>Needs allowed domains. The VM&apos;s only way out is its forwarder to the engine&apos;s filtering proxy, which checks every target against the allowed and denied domains first, then reaches it only through the upstream proxy (CONNECT host:port, over TLS to the proxy when its URL is https, verified against the system&apos;s authorities and the policy&apos;s extra ones; plain HTTP requests too), never directly; the engine, not the VM, connects to the upstream proxy, and the upstream proxy resolves the names. Its credential is read from the secret storage when a connection needs it and sent to the upstream proxy alone (Proxy-Authorization: Basic), never into the VM. Its refusals (407, 403) are reported as network refusals for this backend; its other failures, and an unreachable proxy, answer the command&apos;s connection with the reason. Each upstream proxy (its URL and credential name) gets a VM of its own.</source>
        <translation>Braucht erlaubte Domains. Der einzige Weg aus der VM ist ihr Weiterleiter zum filternden Proxy der Engine, der jedes Ziel zuerst gegen die erlaubten und gesperrten Domains prüft und es dann nur über den vorgeschalteten Proxy erreicht (CONNECT host:port, über TLS zum Proxy, wenn seine URL https ist, geprüft gegen die Zertifizierungsstellen des Systems und die zusätzlichen der Richtlinie; auch einfache HTTP-Anfragen), nie direkt; die Engine, nicht die VM, verbindet sich mit dem vorgeschalteten Proxy, und der vorgeschaltete Proxy löst die Namen auf. Sein Zugangsdatum wird aus dem Geheimnisspeicher gelesen, wenn eine Verbindung es braucht, und nur an den vorgeschalteten Proxy gesendet (Proxy-Authorization: Basic), nie in die VM. Seine Ablehnungen (407, 403) werden als Netzwerkablehnungen für dieses Backend gemeldet; seine anderen Fehler und ein unerreichbarer Proxy beantworten die Verbindung des Befehls mit dem Grund. Jeder vorgeschaltete Proxy (seine URL und der Name seines Zugangsdatums) bekommt eine eigene VM.</translation>
    </message>
    <message>
        <source>SSH connections to the agent&apos;s hosts go through the filtering proxy, which serves the network mode &quot;allowlist&quot; only; set that mode (with or without allowed domains). Nothing was run.</source>
        <translation>SSH-Verbindungen zu den Hosts des Agenten gehen über den filternden Proxy, der nur den Netzwerkmodus &quot;allowlist&quot; bedient; setzen Sie diesen Modus (mit oder ohne erlaubte Domains). Es wurde nichts ausgeführt.</translation>
    </message>
    <message>
        <source>This engine offers no SSH agent; nothing was run.</source>
        <translation>Diese Engine bietet keinen SSH-Agenten; es wurde nichts ausgeführt.</translation>
    </message>
    <message>
        <source>This engine offers no credential injection; nothing was run.</source>
        <translation>Diese Engine bietet kein Einsetzen von Zugangsdaten; es wurde nichts ausgeführt.</translation>
    </message>
    <message>
        <source>cannot create a folder for the command&apos;s SSH agent under %1; nothing was run</source>
        <translation>unter %1 kann kein Ordner für den SSH-Agenten des Befehls angelegt werden; es wurde nichts ausgeführt</translation>
    </message>
    <message>
        <source>cannot read the command&apos;s SSH configuration: %1; nothing was run</source>
        <translation>die SSH-Konfiguration des Befehls kann nicht gelesen werden: %1; es wurde nichts ausgeführt</translation>
    </message>
    <message>
        <source>the command&apos;s SSH configuration holds a NUL; nothing was run</source>
        <translation>die SSH-Konfiguration des Befehls enthält ein NUL-Zeichen; es wurde nichts ausgeführt</translation>
    </message>
    <message>
        <source>Each command gets a filtering agent of the engine&apos;s own (the user&apos;s agent socket never enters the guest): it lists and signs with the policy&apos;s keys only, asks the user before a signature as the policy&apos;s confirm says, passes no extension but session-bind@openssh.com, refuses adding, removing, locking and unlocking keys, and reports every refusal. Inside the guest SSH_AUTH_SOCK, set after the request&apos;s own environment, names a unix socket that the guest&apos;s exec agent opens for that command before it runs, in a folder of the command&apos;s own under /run/sandbox-studio, and removes when the command ends; the exec agent relays its connections over its own channel, in bounded buffers, to the command&apos;s filter on the host. It serves a connection only when the connecting process (SO_PEERCRED) is in the command&apos;s session; a process of another command of the VM is turned away and reported, and a process of the command that starts a session of its own loses the agent. Limits: the check trusts the pid the kernel gives for the connecting process, read at once on each connection; the commands of one VM all run as root on one kernel, so another command can remove or replace the socket file (it still cannot use the agent through it) and can reach into the command&apos;s own processes (through /proc/PID/mem, say) and act as that command: the agent is as separate from another command of the same VM as the two commands are from each other. A VM serves later commands of the same workspace and policy, so a process an earlier command left behind counts as another command; each agent policy (keys, hosts, confirmation) gets a VM of its own. SSH connections (the policy&apos;s hosts, port 22 unless one is given; they need the network mode allowlist) go only through the filtering proxy, which allows those hosts beside the allowed domains; each set of hosts gets a VM of its own. git uses an SSH configuration of the engine&apos;s, written into the command&apos;s agent folder (GIT_SSH_COMMAND; others: ssh -F &quot;$SANDBOX_SSH_CONFIG&quot;), whose ProxyCommand is the guest agent&apos;s tunnel (sandbox-vm-agent --ssh-proxy) through the guest&apos;s network forwarder, whose host keys are the user&apos;s known-hosts entries for those hosts, copied there and checked strictly, and which reads none of the user&apos;s SSH options; an ssh that ignores that configuration reaches nothing, as the guest has no other way out. The SSH client is the host&apos;s, from the files the policy shares.</source>
        <translation>Jeder Befehl bekommt einen filternden Agenten der Engine (der Agenten-Socket des Benutzers gelangt nie in den Gast): er listet und signiert nur mit den Schlüsseln der Richtlinie, fragt den Benutzer vor einer Signatur, wie es confirm der Richtlinie sagt, lässt keine Erweiterung außer session-bind@openssh.com durch, lehnt das Hinzufügen, Entfernen, Sperren und Entsperren von Schlüsseln ab und meldet jede Ablehnung. Im Gast nennt SSH_AUTH_SOCK, gesetzt nach der eigenen Umgebung der Anfrage, einen Unix-Socket, den der Ausführungsagent des Gastes für diesen Befehl öffnet, bevor er läuft, in einem eigenen Ordner des Befehls unter /run/sandbox-studio, und entfernt, wenn der Befehl endet; der Ausführungsagent leitet seine Verbindungen über seinen eigenen Kanal in begrenzten Puffern an den Filter des Befehls auf dem Host weiter. Er bedient eine Verbindung nur, wenn der verbindende Prozess (SO_PEERCRED) in der Sitzung des Befehls ist; ein Prozess eines anderen Befehls der VM wird abgewiesen und gemeldet, und ein Prozess des Befehls, der eine eigene Sitzung beginnt, verliert den Agenten. Grenzen: die Prüfung vertraut der PID, die der Kernel für den verbindenden Prozess angibt, sofort bei jeder Verbindung gelesen; die Befehle einer VM laufen alle als root auf einem Kernel, daher kann ein anderer Befehl die Socket-Datei entfernen oder ersetzen (den Agenten kann er dadurch trotzdem nicht nutzen) und in die Prozesse des Befehls eingreifen (etwa über /proc/PID/mem) und als dieser Befehl handeln: der Agent ist von einem anderen Befehl derselben VM so getrennt wie die beiden Befehle voneinander. Eine VM bedient spätere Befehle desselben Arbeitsbereichs und derselben Richtlinie, daher zählt ein Prozess, den ein früherer Befehl zurückgelassen hat, als anderer Befehl; jede Agentenrichtlinie (Schlüssel, Hosts, Bestätigung) bekommt eine eigene VM. SSH-Verbindungen (die Hosts der Richtlinie, Port 22, wenn keiner angegeben ist; sie brauchen den Netzwerkmodus Allowlist) gehen nur über den filternden Proxy, der diese Hosts neben den erlaubten Domains zulässt; jede Menge von Hosts bekommt eine eigene VM. git verwendet eine SSH-Konfiguration der Engine, in den Agenten-Ordner des Befehls geschrieben (GIT_SSH_COMMAND; andere: ssh -F &quot;$SANDBOX_SSH_CONFIG&quot;), deren ProxyCommand der Tunnel des Gastagenten ist (sandbox-vm-agent --ssh-proxy) durch den Netzwerk-Weiterleiter des Gastes, deren Host-Schlüssel die known-hosts-Einträge des Benutzers für diese Hosts sind, dorthin kopiert und streng geprüft, und die keine SSH-Optionen des Benutzers liest; ein ssh, das diese Konfiguration übergeht, erreicht nichts, da der Gast keinen anderen Weg nach draußen hat. Der SSH-Client ist der des Hosts, aus den Dateien, die die Richtlinie freigibt.</translation>
    </message>
    <message>
        <source>Needs allowed domains. Commands see a placeholder (in the credential&apos;s variable, set after the request&apos;s own), never the value. The engine&apos;s filtering proxy, the VM&apos;s only way out, terminates TLS only toward a credential&apos;s hosts (a certificate of the engine&apos;s own authority per host; the real host verified against the system&apos;s authorities and the policy&apos;s extra ones), replaces the placeholder with the value only in the allowed headers (inside &quot;Authorization: Basic&quot; too) of requests whose Host header and TLS server name are the tunnel&apos;s host (anything else is refused as domain fronting), refuses TRACE and protocol upgrades, withholds an answer that carries a value back (an echo) and ends the connection, and reports every placeholder it sees going elsewhere, for this backend. The engine&apos;s certificate bundle (the system&apos;s authorities, the engine&apos;s, the policy&apos;s extra ones) is in the VM&apos;s initramfs at %1, which the guest&apos;s init binds read-only over itself and over %2 (commands, root in the guest, cannot mount or unmount), and named by SSL_CERT_FILE, NODE_EXTRA_CA_CERTS, REQUESTS_CA_BUNDLE, CURL_CA_BUNDLE, GIT_SSL_CAINFO, PIP_CERT and AWS_CA_BUNDLE. The authority&apos;s private key never enters the VM. Each set of credentials gets a VM of its own.</source>
        <translation>Braucht erlaubte Domains. Befehle sehen einen Platzhalter (in der Variablen des Zugangsdatums, gesetzt nach der eigenen Umgebung der Anfrage), nie den Wert. Der filternde Proxy der Engine, der einzige Weg aus der VM, terminiert TLS nur zu den Hosts eines Zugangsdatums (ein Zertifikat der eigenen Zertifizierungsstelle der Engine pro Host; der echte Host geprüft gegen die Zertifizierungsstellen des Systems und die zusätzlichen der Richtlinie), ersetzt den Platzhalter durch den Wert nur in den erlaubten Headern (auch innerhalb von &quot;Authorization: Basic&quot;) von Anfragen, deren Host-Header und TLS-Servername der Host des Tunnels sind (alles andere wird als Domain Fronting abgelehnt), lehnt TRACE und Protokollwechsel ab, hält eine Antwort zurück, die einen Wert zurückträgt (ein Echo), und beendet die Verbindung, und meldet jeden Platzhalter, den er anderswohin gehen sieht, für dieses Backend. Das Zertifikatsbündel der Engine (die Zertifizierungsstellen des Systems, die der Engine, die zusätzlichen der Richtlinie) liegt im Initramfs der VM unter %1, das der Init des Gastes schreibgeschützt über sich selbst und über %2 bindet (Befehle, im Gast root, können weder ein- noch aushängen), und wird genannt von SSL_CERT_FILE, NODE_EXTRA_CA_CERTS, REQUESTS_CA_BUNDLE, CURL_CA_BUNDLE, GIT_SSL_CAINFO, PIP_CERT und AWS_CA_BUNDLE. Der private Schlüssel der Zertifizierungsstelle gelangt nie in die VM. Jede Menge von Zugangsdaten bekommt eine eigene VM.</translation>
    </message>
    <message>
        <source>Reported as they happen: every system call of sandbox-init&apos;s deny list refused in the guest, tied to the command (and still written on the command&apos;s stderr); every write sandbox-init&apos;s write gate refuses in the guest, tied to the command; under the allowlist network mode every connection the filtering proxy refuses, for this backend (one VM&apos;s forwarder serves every command in it, so such a refusal is not tied to one command); every refusal of a command&apos;s SSH agent and every connection to a command&apos;s agent socket from outside its session, tied to the command; and the engine&apos;s own refusals. Not observed: what the guest&apos;s kernel refuses on files (a write to a read-only share; a denied path is simply absent from the guest).</source>
        <translation>Gemeldet, sobald sie geschehen: jeder Systemaufruf der Sperrliste von sandbox-init, der im Gast abgelehnt wird, dem Befehl zugeordnet (und weiterhin auf der Standardfehlerausgabe des Befehls geschrieben); jeder Schreibvorgang, den das Schreibtor von sandbox-init im Gast ablehnt, dem Befehl zugeordnet; im Netzwerkmodus Allowlist jede Verbindung, die der filternde Proxy ablehnt, für dieses Backend (der Weiterleiter einer VM bedient jeden Befehl darin, daher ist eine solche Ablehnung keinem Befehl zugeordnet); jede Ablehnung des SSH-Agenten eines Befehls und jede Verbindung zum Agenten-Socket eines Befehls von außerhalb seiner Sitzung, dem Befehl zugeordnet; und die eigenen Ablehnungen der Engine. Nicht beobachtet: was der Kernel des Gastes bei Dateien ablehnt (ein Schreibzugriff auf eine schreibgeschützte Freigabe; ein gesperrter Pfad fehlt im Gast einfach).</translation>
    </message>
    <message>
        <source>host processes invisible and unreachable (a separate kernel); commands of one VM share it; each command runs as the guest&apos;s root under sandbox-init, with only the capabilities file work as root needs (owners, modes, any file&apos;s permissions, low ports): none that reaches another process, the kernel, devices or the network&apos;s configuration, so no command can trace, read, rewrite, signal or stop sandbox-init or the guest&apos;s agent, and the writes sandbox-init makes for it carry no more authority; nothing on the guest&apos;s /sys is written; and under sandbox-init&apos;s seccomp deny list (ptrace, process_vm_readv, mount, namespaces, bpf, io_uring, keyrings, modules, kexec, reboot, perf, the clock and syslog refused with EPERM, each reported and written on the command&apos;s stderr; foreign architectures killed); QEMU itself runs under its seccomp sandbox (no spawning, no privilege changes)</source>
        <translation>Host-Prozesse unsichtbar und unerreichbar (ein eigener Kernel); Befehle einer VM teilen sie sich; jeder Befehl läuft als root des Gasts unter sandbox-init, nur mit den Capabilities, die Dateiarbeit als root braucht (Besitzer, Modi, die Rechte jeder Datei, niedrige Ports): keine, die einen anderen Prozess, den Kernel, Geräte oder die Netzwerkkonfiguration erreicht, daher kann kein Befehl sandbox-init oder den Agenten des Gasts verfolgen, lesen, umschreiben, ihm ein Signal senden oder ihn anhalten, und die Schreibvorgänge, die sandbox-init für ihn ausführt, tragen keine weitere Befugnis; auf /sys des Gasts wird nichts geschrieben; und unter der Seccomp-Sperrliste von sandbox-init (ptrace, process_vm_readv, mount, Namespaces, bpf, io_uring, Schlüsselbunde, Module, kexec, reboot, perf, die Uhr und syslog mit EPERM abgewiesen, jeweils gemeldet und auf stderr des Befehls geschrieben; fremde Architekturen beendet); QEMU selbst läuft unter seiner Seccomp-Sandbox (kein Starten von Prozessen, keine Rechteänderungen)</translation>
    </message>
    <message>
        <source>%1 with its own kernel; the workspace shared read-write over 9p; readable paths shared read-only (read-only in QEMU itself); denied paths never shared: a directory holding a denied path is not shared, its other subdirectories are (those present when the VM booted; read-only ones whose names hold a tab or line break are left out), its files are not; read-only directories inside the workspace shared read-only on top, and read-only files, links and paths that do not exist yet kept by the write gate (below); /tmp, /proc, /sys, /dev and /run are the guest&apos;s own, private to the VM; a VM never serves another workspace or a stricter policy. Every command runs under sandbox-init&apos;s write gate in the guest, as in the auto backend: its calls that create, write, truncate, link, rename or remove a file are handed to sandbox-init, which judges them by the rules every backend shares and makes them itself. So in the writable shares no command creates or changes a file that makes the host&apos;s git run code, in any repository, existing or new, at any depth: no entry named .git is created, moved or removed, no control file of a git directory (config, hooks, info, commondir, gitdir, config.worktree, the object alternates, in a .git, a bare repository or the git directories under its modules and worktrees) is created or changed, no HEAD is made outside a git directory, nothing is moved into or out of a git directory, no read-only path is changed and no file with other hard links is written, while git add, commit, branch and stash work. Each such write fails with &quot;permission denied&quot; when it is made and is reported; a chmod that sets an execute bit on those files is refused too. Not judged: a unix socket bound to such a name (bind). The gate is bound read-only in the guest and run from a descriptor opened at boot, so no command changes what the next one runs under</source>
        <translation>%1 mit eigenem Kernel; der Arbeitsbereich beschreibbar über 9p freigegeben; lesbare Pfade schreibgeschützt freigegeben (schreibgeschützt in QEMU selbst); verbotene Pfade werden nie freigegeben: Ein Verzeichnis mit einem verbotenen Pfad wird nicht freigegeben, seine anderen Unterverzeichnisse schon (die beim Start der VM vorhandenen; schreibgeschützte, deren Namen einen Tabulator oder Zeilenumbruch enthalten, bleiben weg), seine Dateien nicht; schreibgeschützte Verzeichnisse im Arbeitsbereich werden schreibgeschützt darübergelegt, und schreibgeschützte Dateien, Links und noch nicht existierende Pfade hält das Schreibtor (unten) schreibgeschützt; /tmp, /proc, /sys, /dev und /run gehören dem Gast, privat für die VM; eine VM dient nie einem anderen Arbeitsbereich oder einer strengeren Richtlinie. Jeder Befehl läuft im Gast unter dem Schreibtor von sandbox-init, wie im Backend auto: Seine Aufrufe, die eine Datei anlegen, schreiben, kürzen, verlinken, umbenennen oder entfernen, gehen an sandbox-init, das sie nach den Regeln beurteilt, die alle Backends teilen, und sie selbst ausführt. In den beschreibbaren Freigaben legt daher kein Befehl eine Datei an oder ändert eine, die Git des Hosts Code ausführen lässt, in keinem Repository, bestehend oder neu, in keiner Tiefe: Kein Eintrag namens .git wird angelegt, verschoben oder entfernt, keine Steuerdatei eines Git-Verzeichnisses (config, hooks, info, commondir, gitdir, config.worktree, die Objekt-Alternates, in einem .git, einem Bare-Repository oder den Git-Verzeichnissen unter seinen modules und worktrees) wird angelegt oder geändert, kein HEAD entsteht außerhalb eines Git-Verzeichnisses, nichts wird in ein Git-Verzeichnis hinein oder aus ihm heraus verschoben, kein schreibgeschützter Pfad wird geändert und keine Datei mit weiteren harten Links wird geschrieben, während git add, commit, branch und stash funktionieren. Jeder solche Schreibzugriff schlägt im Moment des Schreibens mit „permission denied“ fehl und wird gemeldet; ein chmod, das auf diesen Dateien ein Ausführungsbit setzt, wird ebenfalls abgewiesen. Nicht geprüft: ein Unix-Socket, der unter einem solchen Namen gebunden wird (bind). Das Tor ist im Gast schreibgeschützt eingehängt und wird über einen beim Start geöffneten Deskriptor ausgeführt, sodass kein Befehl ändern kann, unter welchem Tor der nächste läuft</translation>
    </message>
</context>
<context>
    <name>sandbox</name>
    <message>
        <source>The command is empty.</source>
        <translation>Der Befehl ist leer.</translation>
    </message>
    <message>
        <source>The working directory must be an absolute path.</source>
        <translation>Das Arbeitsverzeichnis muss ein absoluter Pfad sein.</translation>
    </message>
    <message>
        <source>The working directory %1 does not exist.</source>
        <translation>Das Arbeitsverzeichnis %1 existiert nicht.</translation>
    </message>
    <message>
        <source>The timeout cannot be negative.</source>
        <translation>Die Zeitgrenze darf nicht negativ sein.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid variable name.</source>
        <translation>„%1“ ist kein gültiger Variablenname.</translation>
    </message>
    <message>
        <source>The backend&apos;s %1 timed out after %2 s and was cancelled.</source>
        <translation>%1 des Backends hat nach %2 s die Zeitgrenze überschritten und wurde abgebrochen.</translation>
    </message>
    <message>
        <source>The backend&apos;s %1 was cancelled: the engine is shutting down.</source>
        <translation>%1 des Backends wurde abgebrochen: Die Engine wird beendet.</translation>
    </message>
    <message>
        <source>The backend&apos;s %1 ended without a result.</source>
        <translation>%1 des Backends endete ohne Ergebnis.</translation>
    </message>
    <message>
        <source>not a canonical backend reference</source>
        <translation>keine kanonische Backend-Referenz</translation>
    </message>
    <message>
        <source>expected an object, got %1</source>
        <translation>Objekt erwartet, %1 erhalten</translation>
    </message>
    <message>
        <source>expected a boolean or an object, got %1</source>
        <translation>Wahrheitswert oder Objekt erwartet, %1 erhalten</translation>
    </message>
    <message>
        <source>unknown key (expected enabled, maxInactiveArtifacts or maxBytes)</source>
        <translation>unbekannter Schlüssel (erwartet: enabled, maxInactiveArtifacts oder maxBytes)</translation>
    </message>
    <message>
        <source>expected a %1, got %2</source>
        <translation>%1 erwartet, %2 erhalten</translation>
    </message>
    <message>
        <source>boolean</source>
        <translation>Wahrheitswert</translation>
    </message>
    <message>
        <source>number</source>
        <translation>Zahl</translation>
    </message>
    <message>
        <source>unknown step &quot;%1&quot;; expected one of %2</source>
        <translation>unbekannter Schritt „%1“; erwartet wird einer von %2</translation>
    </message>
    <message>
        <source>missing required key</source>
        <translation>erforderlicher Schlüssel fehlt</translation>
    </message>
    <message>
        <source>is too long (%1 characters, at most %2)</source>
        <translation>ist zu lang (%1 Zeichen, höchstens %2)</translation>
    </message>
    <message>
        <source>descriptors are data only</source>
        <translation>Beschreibungen sind reine Daten</translation>
    </message>
    <message>
        <source>must not contain whitespace or control characters</source>
        <translation>darf keine Leer- oder Steuerzeichen enthalten</translation>
    </message>
    <message>
        <source>expected %1, got %2</source>
        <translation>%1 erwartet, %2 erhalten</translation>
    </message>
    <message>
        <source>document is too large (%1 bytes, at most %2)</source>
        <translation>Dokument ist zu groß (%1 Bytes, höchstens %2)</translation>
    </message>
    <message>
        <source>not valid JSON at offset %1: %2</source>
        <translation>kein gültiges JSON an Position %1: %2</translation>
    </message>
    <message>
        <source>expected a JSON object, got %1</source>
        <translation>JSON-Objekt erwartet, %1 erhalten</translation>
    </message>
    <message>
        <source>an array</source>
        <translation>ein Array</translation>
    </message>
    <message>
        <source>a scalar</source>
        <translation>ein Skalar</translation>
    </message>
    <message>
        <source>too many entries (%1, at most %2)</source>
        <translation>zu viele Einträge (%1, höchstens %2)</translation>
    </message>
    <message>
        <source>must name a program to run</source>
        <translation>muss ein auszuführendes Programm nennen</translation>
    </message>
    <message>
        <source>too many arguments (%1, at most %2)</source>
        <translation>zu viele Argumente (%1, höchstens %2)</translation>
    </message>
    <message>
        <source>the program must not be empty</source>
        <translation>das Programm darf nicht leer sein</translation>
    </message>
    <message>
        <source>contains a NUL character</source>
        <translation>enthält ein NUL-Zeichen</translation>
    </message>
    <message>
        <source>must be an absolute path</source>
        <translation>muss ein absoluter Pfad sein</translation>
    </message>
    <message>
        <source>expected an array</source>
        <translation>Array erwartet</translation>
    </message>
    <message>
        <source>This backend&apos;s description could not be read, so it cannot be used: %1</source>
        <translation>Die Beschreibung dieses Backends konnte nicht gelesen werden, daher kann es nicht benutzt werden: %1</translation>
    </message>
    <message>
        <source>missing; expected a backend reference</source>
        <translation>fehlt; erwartet wird eine Backend-Referenz</translation>
    </message>
    <message>
        <source>missing; expected a string</source>
        <translation>fehlt; erwartet wird eine Zeichenkette</translation>
    </message>
    <message>
        <source>expected a non-empty string, got %1</source>
        <translation>nicht leere Zeichenkette erwartet, %1 erhalten</translation>
    </message>
    <message>
        <source>missing; expected a process id</source>
        <translation>fehlt; erwartet wird eine Prozess-ID</translation>
    </message>
    <message>
        <source>expected a positive integer, got %1</source>
        <translation>positive ganze Zahl erwartet, %1 erhalten</translation>
    </message>
    <message>
        <source>expected an array, got %1</source>
        <translation>Array erwartet, %1 erhalten</translation>
    </message>
    <message>
        <source>the engine abandoned the operation (shutting down?)</source>
        <translation>die Engine hat den Vorgang aufgegeben (wird sie beendet?)</translation>
    </message>
    <message>
        <source>expected a JSON object</source>
        <translation>JSON-Objekt erwartet</translation>
    </message>
    <message>
        <source>contains a control character at position %1</source>
        <translation>enthält an Position %1 ein Steuerzeichen</translation>
    </message>
    <message>
        <source>cannot read the %1 %2: %3</source>
        <translation>%1 %2 kann nicht gelesen werden: %3</translation>
    </message>
    <message>
        <source>the %1 %2 is larger than %3 bytes</source>
        <translation>%1 %2 ist größer als %3 Bytes</translation>
    </message>
    <message>
        <source>contains a bidirectional override at position %1</source>
        <translation>enthält an Position %1 eine bidirektionale Steuerung</translation>
    </message>
    <message>
        <source>The workspace %1 is not an existing directory.</source>
        <translation>Der Arbeitsbereich %1 ist kein vorhandenes Verzeichnis.</translation>
    </message>
    <message>
        <source>The working directory %1 is not inside the workspace %2.</source>
        <translation>Das Arbeitsverzeichnis %1 liegt nicht im Arbeitsbereich %2.</translation>
    </message>
    <message>
        <source>must have 1 to %1 characters</source>
        <translation>muss 1 bis %1 Zeichen haben</translation>
    </message>
    <message>
        <source>may hold only lower-case letters, digits, &apos;-&apos; and &apos;.&apos;</source>
        <translation>darf nur Kleinbuchstaben, Ziffern, „-“ und „.“ enthalten</translation>
    </message>
    <message>
        <source>too many credentials (%1, at most %2)</source>
        <translation>zu viele Zugangsdaten (%1, höchstens %2)</translation>
    </message>
    <message>
        <source>credential &quot;%1&quot; is listed twice (also credentials[%2])</source>
        <translation>Zugangsdatum „%1“ ist doppelt aufgeführt (auch credentials[%2])</translation>
    </message>
    <message>
        <source>variable %1 is already given to credentials[%2]</source>
        <translation>die Variable %1 ist bereits credentials[%2] zugewiesen</translation>
    </message>
    <message>
        <source>must not be empty; expected a URL such as %1</source>
        <translation>darf nicht leer sein; erwartet wird eine URL wie %1</translation>
    </message>
    <message>
        <source>must start with http:// or https:// (TLS to the proxy itself); expected a URL such as %1</source>
        <translation>muss mit http:// oder https:// (TLS zum Proxy selbst) beginnen; erwartet wird eine URL wie %1</translation>
    </message>
    <message>
        <source>must not carry a user or password: store &quot;user:password&quot; with sandboxctl credential set NAME and name it in upstreamProxy.credential</source>
        <translation>darf keinen Benutzer und kein Passwort enthalten: Speichern Sie &quot;benutzer:passwort&quot; mit sandboxctl credential set NAME und nennen Sie ihn in upstreamProxy.credential</translation>
    </message>
    <message>
        <source>must name the proxy only (scheme, host and port), without a path, query or fragment</source>
        <translation>darf nur den Proxy nennen (Schema, Host und Port), ohne Pfad, Abfrage oder Fragment</translation>
    </message>
    <message>
        <source>must name the proxy&apos;s port after the IPv6 address (http://[::1]:3128)</source>
        <translation>muss den Port des Proxys nach der IPv6-Adresse nennen (http://[::1]:3128)</translation>
    </message>
    <message>
        <source>has an invalid IPv6 address</source>
        <translation>hat eine ungültige IPv6-Adresse</translation>
    </message>
    <message>
        <source>must name the proxy&apos;s port, such as %1</source>
        <translation>muss den Port des Proxys nennen, etwa %1</translation>
    </message>
    <message>
        <source>has an invalid host name; expected a URL such as %1</source>
        <translation>hat einen ungültigen Hostnamen; erwartet wird eine URL wie %1</translation>
    </message>
    <message>
        <source>has an invalid port; expected a number from 1 to 65535</source>
        <translation>hat einen ungültigen Port; erwartet wird eine Zahl von 1 bis 65535</translation>
    </message>
</context>
<context>
    <name>sandbox::ActivationEvent</name>
    <message>
        <source>unknown state &quot;%1&quot;; expected started, succeeded, failed, skipped or warning</source>
        <translation>unbekannter Zustand „%1“; erwartet: started, succeeded, failed, skipped oder warning</translation>
    </message>
</context>
<context>
    <name>sandbox::ActivationResult</name>
    <message>
        <source>only a failed activation carries %1</source>
        <translation>nur eine fehlgeschlagene Aktivierung enthält %1</translation>
    </message>
    <message>
        <source>a failed activation must say why</source>
        <translation>eine fehlgeschlagene Aktivierung muss den Grund nennen</translation>
    </message>
</context>
<context>
    <name>sandbox::AutoLauncher</name>
    <message>
        <source>Automatic (OS sandbox)</source>
        <translation>Automatisch (Betriebssystem-Sandbox)</translation>
    </message>
    <message>
        <source>Confines each command with the strongest lightweight sandbox this system offers: namespaces, Landlock and seccomp on Linux.</source>
        <translation>Beschränkt jeden Befehl mit der stärksten leichtgewichtigen Sandbox, die dieses System bietet: Namespaces, Landlock und Seccomp unter Linux.</translation>
    </message>
    <message>
        <source>Sandbox tier</source>
        <translation>Sandbox-Stufe</translation>
    </message>
    <message>
        <source>Strongest picks namespaces + Landlock + seccomp when the kernel allows user namespaces. Landlock + seccomp skips namespaces (for hosts where they misbehave) and is weaker: host processes stay visible and /tmp is shared.</source>
        <translation>„Stärkste“ wählt Namespaces + Landlock + Seccomp, wenn der Kernel User-Namespaces erlaubt. „Landlock + Seccomp“ verzichtet auf Namespaces (für Hosts, auf denen sie Probleme machen) und ist schwächer: Host-Prozesse bleiben sichtbar und /tmp wird geteilt.</translation>
    </message>
    <message>
        <source>Strongest available</source>
        <translation>Stärkste verfügbare</translation>
    </message>
    <message>
        <source>Landlock + seccomp only</source>
        <translation>Nur Landlock + Seccomp</translation>
    </message>
    <message>
        <source>Landlock ABI %1</source>
        <translation>Landlock-ABI %1</translation>
    </message>
    <message>
        <source>no Landlock (kernel lacks it)</source>
        <translation>kein Landlock (der Kernel hat es nicht)</translation>
    </message>
    <message>
        <source>not enforced: no sandbox tier is available (%1), nothing is run</source>
        <translation>nicht durchgesetzt: Keine Sandbox-Stufe ist verfügbar (%1), nichts wird ausgeführt</translation>
    </message>
    <message>
        <source>user, pid, ipc, uts and cgroup namespaces (host processes invisible and unreachable); seccomp-bpf deny list (ptrace, mount, namespaces, bpf, io_uring, keyrings, modules, foreign architectures killed; int arguments compared on their low 32 bits); resource limits, scheduling and I/O priority only on the calling process or its process group (seccomp); no_new_privs; every capability dropped; %1 signal and abstract-socket scoping; a pid-1 reaper; ends with its parent</source>
        <translation>User-, PID-, IPC-, UTS- und Cgroup-Namespaces (Host-Prozesse unsichtbar und unerreichbar); Seccomp-BPF-Sperrliste (ptrace, mount, Namespaces, bpf, io_uring, Schlüsselbunde, Module, fremde Architekturen beendet; Integer-Argumente auf ihren unteren 32 Bit verglichen); Ressourcengrenzen, Scheduling und I/O-Priorität nur für den aufrufenden Prozess oder seine Prozessgruppe (Seccomp); no_new_privs; alle Capabilities entzogen; %1 Signal- und Abstract-Socket-Eingrenzung; ein Reaper als PID 1; endet mit seinem Elternprozess</translation>
    </message>
    <message>
        <source>(no Landlock scoping on this kernel)</source>
        <translation>(keine Landlock-Eingrenzung auf diesem Kernel)</translation>
    </message>
    <message>
        <source>none: empty network namespace%1; allowlist: only the filtering proxy, bridged on 127.0.0.1:%2; full: the host&apos;s network</source>
        <translation>none: leerer Netzwerk-Namespace%1; allowlist: nur der Filter-Proxy, überbrückt auf 127.0.0.1:%2; full: das Netzwerk des Hosts</translation>
    </message>
    <message>
        <source> + Landlock TCP rules</source>
        <translation> + Landlock-TCP-Regeln</translation>
    </message>
    <message>
        <source>filtering proxy (HTTP CONNECT, HTTP, SOCKS5) resolving names itself, refusing private and loopback targets unless named exactly; proxy variables set; no other route out of the network namespace</source>
        <translation>Filter-Proxy (HTTP CONNECT, HTTP, SOCKS5), der Namen selbst auflöst und private und Loopback-Ziele abweist, sofern sie nicht genau genannt sind; Proxy-Variablen gesetzt; kein anderer Weg aus dem Netzwerk-Namespace</translation>
    </message>
    <message>
        <source>; abstract sockets also scoped by Landlock</source>
        <translation>; abstrakte Sockets zusätzlich durch Landlock eingegrenzt</translation>
    </message>
    <message>
        <source>weaker, no namespaces: host processes are visible in /proc; seccomp-bpf deny list (int arguments compared on their low 32 bits), no_new_privs, capabilities dropped; resource limits, scheduling and I/O priority only on the calling process or its process group, never on host processes or sandbox-init (seccomp); the host&apos;s SysV IPC and POSIX message queues refused (seccomp); %1; the command and everything it starts are killed when it ends (child subreaper)</source>
        <translation>schwächer, keine Namespaces: Host-Prozesse sind in /proc sichtbar; Seccomp-BPF-Sperrliste (Integer-Argumente auf ihren unteren 32 Bit verglichen), no_new_privs, Capabilities entzogen; Ressourcengrenzen, Scheduling und I/O-Priorität nur für den aufrufenden Prozess oder seine Prozessgruppe, nie für Host-Prozesse oder sandbox-init (Seccomp); SysV-IPC und POSIX-Nachrichtenwarteschlangen des Hosts abgewiesen (Seccomp); %1; der Befehl und alles, was er startet, werden bei seinem Ende beendet (Child-Subreaper)</translation>
    </message>
    <message>
        <source>signals to processes outside the sandbox blocked by Landlock scope</source>
        <translation>Signale an Prozesse außerhalb der Sandbox durch Landlock-Eingrenzung blockiert</translation>
    </message>
    <message>
        <source>not enforced: signals to the user&apos;s other processes are possible (Landlock ABI &lt; 6)</source>
        <translation>nicht durchgesetzt: Signale an die anderen Prozesse des Benutzers sind möglich (Landlock-ABI &lt; 6)</translation>
    </message>
    <message>
        <source>none: seccomp refuses every socket family but unix and netlink%1; allowlist: the same, the proxy is reached over its unix socket, the only address sandbox-init connects to; full: the host&apos;s network</source>
        <translation>none: Seccomp weist jede Socket-Familie außer Unix und Netlink ab%1; allowlist: ebenso, der Proxy wird über seinen Unix-Socket erreicht, die einzige Adresse, zu der sandbox-init verbindet; full: das Netzwerk des Hosts</translation>
    </message>
    <message>
        <source>, plus Landlock TCP rules</source>
        <translation>, dazu Landlock-TCP-Regeln</translation>
    </message>
    <message>
        <source>filtering proxy on a unix socket only (ALL_PROXY=socks5h://localhost/ followed by the socket path, understood by curl); tools that need a TCP proxy cannot reach the network</source>
        <translation>Filter-Proxy nur über einen Unix-Socket (ALL_PROXY=socks5h://localhost/ gefolgt vom Socket-Pfad, von curl verstanden); Werkzeuge, die einen TCP-Proxy brauchen, erreichen das Netzwerk nicht</translation>
    </message>
    <message>
        <source>unknown tier &apos;%1&apos; (expected %2 or %3)</source>
        <translation>unbekannte Stufe „%1“ (erwartet: %2 oder %3)</translation>
    </message>
    <message>
        <source>the helper sandbox-init was not found next to %1 nor in ../libexec/sandbox-studio (set SANDBOX_INIT_PATH or reinstall)</source>
        <translation>das Hilfsprogramm sandbox-init wurde weder neben %1 noch in ../libexec/sandbox-studio gefunden (setzen Sie SANDBOX_INIT_PATH oder installieren Sie neu)</translation>
    </message>
    <message>
        <source>seccomp is unavailable: %1</source>
        <translation>Seccomp ist nicht verfügbar: %1</translation>
    </message>
    <message>
        <source>tier 2 because AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns = 1) and no AppArmor profile lets %1 create them (%2). For tier 1, install the .deb or .rpm package: its profile /etc/apparmor.d/sandbox-studio-init grants user namespaces to the installed helper only; if it is not loaded, run sudo apparmor_parser -r /etc/apparmor.d/sandbox-studio-init and restart the engine. </source>
        <translation>Stufe 2, weil AppArmor unprivilegierte User-Namespaces einschränkt (kernel.apparmor_restrict_unprivileged_userns = 1) und kein AppArmor-Profil %1 erlaubt, sie anzulegen (%2). Für Stufe 1 installieren Sie das .deb- oder .rpm-Paket: Sein Profil /etc/apparmor.d/sandbox-studio-init gewährt User-Namespaces nur dem installierten Hilfsprogramm; ist es nicht geladen, führen Sie sudo apparmor_parser -r /etc/apparmor.d/sandbox-studio-init aus und starten Sie die Engine neu. </translation>
    </message>
    <message>
        <source>the Landlock + seccomp tier was selected but this kernel has no Landlock</source>
        <translation>die Stufe Landlock + Seccomp wurde gewählt, aber dieser Kernel hat kein Landlock</translation>
    </message>
    <message>
        <source>user namespaces are refused (%1) and the kernel has no Landlock</source>
        <translation>User-Namespaces werden verweigert (%1), und der Kernel hat kein Landlock</translation>
    </message>
    <message>
        <source>No sandbox tier is available: %1</source>
        <translation>Keine Sandbox-Stufe ist verfügbar: %1</translation>
    </message>
    <message>
        <source>the helper %1 is gone</source>
        <translation>das Hilfsprogramm %1 ist verschwunden</translation>
    </message>
    <message>
        <source>The backend is not prepared or has no sandbox tier; nothing was run.</source>
        <translation>Das Backend ist nicht vorbereitet oder hat keine Sandbox-Stufe; nichts wurde ausgeführt.</translation>
    </message>
    <message>
        <source>Allow host execution?</source>
        <translation>Ausführung auf dem Host erlauben?</translation>
    </message>
    <message>
        <source>The command &apos;%1&apos; asks to reach the host&apos;s session bus, service manager, container engine and agent sockets, which can run programs outside the sandbox. Allow it for this command?</source>
        <translation>Der Befehl „%1“ möchte den Sitzungsbus, den Dienstverwalter, die Container-Engine und die Agenten-Sockets des Hosts erreichen, über die Programme außerhalb der Sandbox laufen können. Für diesen Befehl erlauben?</translation>
    </message>
    <message>
        <source>The engine&apos;s own refusals (a command refused before it runs).</source>
        <translation>Die eigenen Ablehnungen der Engine (ein Befehl, der abgelehnt wird, bevor er läuft).</translation>
    </message>
    <message>
        <source>Reported as they happen: every connection the filtering proxy refuses (allowed domains), tied to the command, and the engine&apos;s own refusals. Not observed: what Landlock, seccomp and the namespaces refuse inside the sandbox (the kernel answers with an error code and, without audit, reports nothing), so denied paths and system calls do not appear.</source>
        <translation>Gemeldet, sobald sie geschehen: jede Verbindung, die der filternde Proxy ablehnt (erlaubte Domains), dem Befehl zugeordnet, und die eigenen Ablehnungen der Engine. Nicht beobachtet: was Landlock, Seccomp und die Namensräume in der Sandbox ablehnen (der Kernel antwortet mit einem Fehlercode und meldet ohne Audit nichts), daher erscheinen verweigerte Pfade und Systemaufrufe nicht.</translation>
    </message>
    <message>
        <source>Reported as they happen, tied to the command: every connection the filtering proxy refuses (allowed domains); under the allowlist network mode every unix socket connection sandbox-init&apos;s connect supervisor refuses; where the kernel offers seccomp user notification, every change of a file&apos;s mode or times outside the writable paths that its metadata supervisor refuses (at most 64 supervisor refusals a command). Also the engine&apos;s own refusals. Not observed: what Landlock and seccomp themselves refuse (the kernel answers with an error code and, without audit, reports nothing), so other denied paths and system calls do not appear.</source>
        <translation>Gemeldet, sobald sie geschehen, dem Befehl zugeordnet: jede Verbindung, die der filternde Proxy ablehnt (erlaubte Domains); im Netzwerkmodus Allowlist jede Unix-Socket-Verbindung, die der Connect-Supervisor von sandbox-init ablehnt; wo der Kernel Seccomp-Benutzerbenachrichtigung bietet, jede Änderung von Modus oder Zeitstempeln einer Datei außerhalb der beschreibbaren Pfade, die sein Metadaten-Supervisor ablehnt (höchstens 64 Supervisor-Ablehnungen je Befehl). Außerdem die eigenen Ablehnungen der Engine. Nicht beobachtet: was Landlock und Seccomp selbst ablehnen (der Kernel antwortet mit einem Fehlercode und meldet ohne Audit nichts), daher erscheinen andere verweigerte Pfade und Systemaufrufe nicht.</translation>
    </message>
    <message>
        <source>network: %1</source>
        <translation>Netzwerk: %1</translation>
    </message>
    <message>
        <source>mount namespace with a root built from the policy (read-only binds, denied paths masked wherever they appear, read-only paths inside writable ones, private /tmp, minimal /dev) + %1 as a second wall granting nothing that contains a denied path, so a credential store created while the command runs is unreadable too; %2</source>
        <translation>Mount-Namensraum mit einer aus der Richtlinie gebauten Wurzel (schreibgeschützte Bind-Mounts, verbotene Pfade überall verdeckt, wo sie vorkommen, schreibgeschützte Pfade in beschreibbaren, privates /tmp, minimales /dev) + %1 als zweite Mauer, die nichts gewährt, das einen verbotenen Pfad enthält, sodass auch ein Anmeldedatenspeicher, der während des Befehls angelegt wird, unlesbar ist; %2</translation>
    </message>
    <message>
        <source>%1 only: readable and writable paths granted whole, so files are created, renamed and removed anywhere in a writable path, the root of a repository included; denied paths unreadable (their names stay listable) even when they are created while the command runs, and a writable directory that contains a denied path gets no new entries directly; $XDG_RUNTIME_DIR and /run/user unreadable (unless inside a writable path); %3; %2; /tmp and /dev/shm are the host&apos;s shared ones, not private as in tier 1: what the command writes there is the host&apos;s, and what the host or other commands keep there (a script in /tmp a host program later runs, say) the command can read, rewrite, rename or remove; a command whose writable paths reach the engine&apos;s configuration, state or runtime directory (run from the home directory that holds them, say) is refused before it runs, since Landlock cannot keep them read-only inside a writable path; the engine&apos;s default socket and its filtering proxy&apos;s channel sockets are in its owner-only runtime directory ($XDG_RUNTIME_DIR/sandbox-studio, else run/ in its state directory), never in the shared /tmp; only null, zero, full, random, urandom and tty devices</source>
        <translation>nur %1: lesbare und beschreibbare Pfade als Ganzes gewährt, sodass Dateien überall in einem beschreibbaren Pfad angelegt, umbenannt und entfernt werden, auch in der Wurzel eines Repositorys; verbotene Pfade unlesbar (ihre Namen bleiben auflistbar), auch wenn sie während des Befehls angelegt werden, und ein beschreibbares Verzeichnis, das einen verbotenen Pfad enthält, erhält direkt keine neuen Einträge; $XDG_RUNTIME_DIR und /run/user unlesbar (außer innerhalb eines beschreibbaren Pfads); %3; %2; /tmp und /dev/shm sind die gemeinsamen des Rechners, nicht privat wie in Stufe 1: Was der Befehl dort schreibt, gehört dem Rechner, und was der Rechner oder andere Befehle dort ablegen (etwa ein Skript in /tmp, das ein Programm des Rechners später ausführt), kann der Befehl lesen, überschreiben, umbenennen oder entfernen; ein Befehl, dessen beschreibbare Pfade das Konfigurations-, Zustands- oder Laufzeitverzeichnis der Engine erreichen (etwa aus dem Home-Verzeichnis gestartet, das sie enthält), wird abgewiesen, bevor er läuft, da Landlock sie innerhalb eines beschreibbaren Pfads nicht schreibgeschützt halten kann; der Standard-Socket der Engine und die Kanal-Sockets ihres filternden Proxys liegen in ihrem nur dem Besitzer zugänglichen Laufzeitverzeichnis ($XDG_RUNTIME_DIR/sandbox-studio, sonst run/ in ihrem Zustandsverzeichnis), nie im gemeinsamen /tmp; nur die Geräte null, zero, full, random, urandom und tty</translation>
    </message>
    <message>
        <source>truncating needs write access (Landlock); changing extended attributes is refused everywhere (seccomp), the workspace included; </source>
        <translation>Kürzen erfordert Schreibzugriff (Landlock); erweiterte Attribute zu ändern wird überall abgewiesen (seccomp), auch im Arbeitsbereich; </translation>
    </message>
    <message>
        <source>changing extended attributes is refused everywhere (seccomp); truncate() is made by sandbox-init, only under a writable path (this Landlock ABI has no truncate right of its own); </source>
        <translation>erweiterte Attribute zu ändern wird überall abgewiesen (seccomp); truncate() führt sandbox-init aus, nur unter einem beschreibbaren Pfad (diese Landlock-ABI hat kein eigenes Recht zum Kürzen); </translation>
    </message>
    <message>
        <source>chmod and utimes (every call that changes a file&apos;s mode or times) are made by sandbox-init on the command&apos;s behalf (seccomp user notification, the path and times read from the command once) only when the file, resolved as the command asked (symbolic links followed unless it asked otherwise), lies under a writable path and belongs to the command&apos;s user; they are refused elsewhere, read-only and denied paths included; a symbolic link&apos;s own times are set on the link sandbox-init holds; on a kernel without seccomp user notification (before Linux 5.0) chmod and utimes are refused everywhere; ownership never changes: chown and its kin succeed, changing nothing, only when they ask for the owner and group a file under a writable path already has (as tar and cp -a do as root), and are refused otherwise</source>
        <translation>chmod und utimes (jeder Aufruf, der die Rechte oder Zeiten einer Datei ändert) führt sandbox-init für den Befehl aus (seccomp-Benutzerbenachrichtigung, Pfad und Zeiten einmal aus dem Befehl gelesen), nur wenn die Datei, aufgelöst wie vom Befehl verlangt (symbolische Links verfolgt, außer er verlangt anderes), unter einem beschreibbaren Pfad liegt und dem Benutzer des Befehls gehört; anderswo werden sie abgewiesen, schreibgeschützte und verbotene Pfade eingeschlossen; die eigenen Zeiten eines symbolischen Links werden an dem Link gesetzt, den sandbox-init hält; auf einem Kernel ohne seccomp-Benutzerbenachrichtigung (vor Linux 5.0) werden chmod und utimes überall abgewiesen; der Besitz ändert sich nie: chown und verwandte Aufrufe gelingen, ohne etwas zu ändern, nur wenn sie den Besitzer und die Gruppe verlangen, die eine Datei unter einem beschreibbaren Pfad schon hat (wie tar und cp -a als root), und werden sonst abgewiesen</translation>
    </message>
    <message>
        <source>The bundle is also bound over the system&apos;s bundle file, so clients that read only that trust the engine&apos;s authority too.</source>
        <translation>Das Bündel wird außerdem über die Bündeldatei des Systems eingehängt, sodass auch Clients, die nur diese lesen, der Zertifizierungsstelle der Engine vertrauen.</translation>
    </message>
    <message>
        <source>Without a mount namespace the system&apos;s bundle file stays the host&apos;s: only clients that read the variables trust the engine&apos;s authority, and only clients that speak SOCKS5 over the proxy&apos;s unix socket (curl; git from 2.46 on) reach the network at all.</source>
        <translation>Ohne Mount-Namespace bleibt die Bündeldatei des Systems die des Hosts: Nur Clients, die die Variablen lesen, vertrauen der Zertifizierungsstelle der Engine, und nur Clients, die SOCKS5 über den Unix-Socket des Proxys sprechen (curl; git ab 2.46), erreichen überhaupt das Netzwerk.</translation>
    </message>
    <message>
        <source>Needs allowed domains. A credential host without a port means its port 443. The command sees a placeholder (in the credential&apos;s variable), never the value. The filtering proxy terminates TLS only toward a credential&apos;s hosts (a certificate of the engine&apos;s own authority per host, made in memory; the real host verified against the system&apos;s authorities and the policy&apos;s extra ones), replaces the placeholder with the value, read from the secret storage when a request needs it, only in the allowed headers (inside &quot;Authorization: Basic&quot; too) of requests whose Host header and TLS server name are the host the tunnel was opened for (compared byte for byte; anything else is refused as domain fronting), refuses TRACE and protocol upgrades, withholds an answer that carries a value back (as sent: an echo of the request) and ends the connection, and reports as a refusal every placeholder it sees going elsewhere (another host, a request line, a body, a plain tunnel; split across two reads, one in an encrypted tunnel to another host goes unseen, and is never replaced). Every other connection stays a plain tunnel. The command trusts the authority through a certificate bundle (the system&apos;s authorities, the engine&apos;s, the policy&apos;s extra ones) named by SSL_CERT_FILE, NODE_EXTRA_CA_CERTS, REQUESTS_CA_BUNDLE, CURL_CA_BUNDLE, GIT_SSL_CAINFO, PIP_CERT and AWS_CA_BUNDLE; the authority&apos;s private key is a denied path; the engine&apos;s process is not dumpable once it holds a value (no core dump, no /proc access to its memory).</source>
        <translation>Benötigt erlaubte Domains. Ein Host eines Zugangsdatums ohne Port bedeutet dessen Port 443. Der Befehl sieht einen Platzhalter (in der Variable des Zugangsdatums), nie den Wert. Der Filter-Proxy terminiert TLS nur zu den Hosts eines Zugangsdatums (ein Zertifikat der eigenen Zertifizierungsstelle der Engine pro Host, im Speicher erzeugt; der echte Host wird gegen die Zertifizierungsstellen des Systems und die zusätzlichen der Richtlinie geprüft), ersetzt den Platzhalter durch den Wert, der aus dem Speicher für Geheimnisse gelesen wird, wenn eine Anfrage ihn braucht, nur in den erlaubten Headern (auch innerhalb von &quot;Authorization: Basic&quot;) von Anfragen, deren Host-Header und TLS-Servername der Host sind, für den der Tunnel geöffnet wurde (Byte für Byte verglichen; alles andere wird als Domain Fronting abgewiesen), weist TRACE und Protokoll-Upgrades ab, hält eine Antwort zurück, die einen Wert zurückbringt (so wie gesendet: ein Echo der Anfrage), und beendet die Verbindung, und meldet jeden Platzhalter, den er anderswohin gehen sieht, als Abweisung (ein anderer Host, eine Anfragezeile, ein Body, ein einfacher Tunnel; einer, der in einem verschlüsselten Tunnel zu einem anderen Host auf zwei Lesevorgänge verteilt ist, bleibt ungesehen und wird nie ersetzt). Jede andere Verbindung bleibt ein einfacher Tunnel. Der Befehl vertraut der Zertifizierungsstelle über ein Zertifikatsbündel (die Zertifizierungsstellen des Systems, die der Engine, die zusätzlichen der Richtlinie), das von SSL_CERT_FILE, NODE_EXTRA_CA_CERTS, REQUESTS_CA_BUNDLE, CURL_CA_BUNDLE, GIT_SSL_CAINFO, PIP_CERT und AWS_CA_BUNDLE genannt wird; der private Schlüssel der Zertifizierungsstelle ist ein verbotener Pfad; der Prozess der Engine ist nicht dumpbar, sobald er einen Wert hält (kein Core-Dump, kein /proc-Zugriff auf seinen Speicher).</translation>
    </message>
    <message>
        <source>This engine offers no credential injection; nothing was run.</source>
        <translation>Diese Engine bietet kein Einsetzen von Zugangsdaten; nichts wurde ausgeführt.</translation>
    </message>
    <message>
        <source>credential: %1</source>
        <translation>Zugangsdatum: %1</translation>
    </message>
    <message>
        <source>SSH connections to the agent&apos;s hosts go through the filtering proxy, which serves the network mode &quot;allowlist&quot; only; set that mode (with or without allowed domains). Nothing was run.</source>
        <translation>SSH-Verbindungen zu den Hosts des Agenten laufen über den Filter-Proxy, der nur den Netzwerkmodus &quot;allowlist&quot; bedient; stellen Sie diesen Modus ein (mit oder ohne erlaubte Domains). Es wurde nichts ausgeführt.</translation>
    </message>
    <message>
        <source>This engine offers no SSH agent; nothing was run.</source>
        <translation>Diese Engine bietet keinen SSH-Agenten; es wurde nichts ausgeführt.</translation>
    </message>
    <message>
        <source>deny: the command cannot create unix sockets at all (seccomp; stream socket pairs still work, datagram ones are refused too), so no host socket is connectable whatever its path, abstract ones included (with an SSH agent in the policy: stream unix sockets only, every connect() answered by sandbox-init, which reaches the agent&apos;s socket and nothing else); besides, the session and system bus, $XDG_RUNTIME_DIR, every unix socket under /run and agent sockets are masked; vsock refused (seccomp)%1; ask: asked before each spawn, no answer means deny; allow: exposed; in every mode the engine refuses protocol connections from processes it sandboxed (they descend from sandbox-init) and logs them</source>
        <translation>deny: Der Befehl kann überhaupt keine Unix-Sockets anlegen (Seccomp; Stream-Socket-Paare funktionieren weiterhin, Datagramm-Paare werden ebenfalls abgewiesen), daher ist kein Host-Socket verbindbar, welcher Pfad auch immer, abstrakte eingeschlossen (mit einem SSH-Agenten in der Richtlinie: nur Stream-Unix-Sockets, jedes connect() beantwortet sandbox-init, das den Socket des Agenten erreicht und sonst nichts); außerdem sind Sitzungs- und Systembus, $XDG_RUNTIME_DIR, jeder Unix-Socket unter /run und Agenten-Sockets verdeckt; vsock abgewiesen (Seccomp)%1; ask: vor jedem Start gefragt, keine Antwort heißt Ablehnung; allow: freigegeben; in jedem Modus weist die Engine Protokollverbindungen von Prozessen ab, die sie in die Sandbox gesetzt hat (sie stammen von sandbox-init ab), und protokolliert sie</translation>
    </message>
    <message>
        <source>deny: with network none or full and no SSH agent the command cannot create unix sockets at all (seccomp; stream socket pairs still work, datagram ones are refused too); with allowed domains or an SSH agent only stream unix sockets and stream socket pairs, and sandbox-init answers every connect() (seccomp user notification, Linux &gt;= 5.14): it connects to the filtering proxy or the agent itself and refuses any other address, so no host socket is connectable whatever its path, abstract ones included%1; vsock refused (seccomp); $XDG_RUNTIME_DIR unreadable; ask: asked before each spawn; allow: exposed; in every mode the engine refuses protocol connections from processes it sandboxed (they descend from sandbox-init) and logs them</source>
        <translation>deny: Mit Netzwerk none oder full und ohne SSH-Agenten kann der Befehl überhaupt keine Unix-Sockets anlegen (Seccomp; Stream-Socket-Paare funktionieren weiterhin, Datagramm-Paare werden ebenfalls abgewiesen); mit erlaubten Domains oder einem SSH-Agenten nur Stream-Unix-Sockets und Stream-Socket-Paare, und sandbox-init beantwortet jedes connect() (Seccomp-User-Notification, Linux &gt;= 5.14): Es verbindet selbst zum Filter-Proxy oder zum Agenten und weist jede andere Adresse ab, daher ist kein Host-Socket verbindbar, welcher Pfad auch immer, abstrakte eingeschlossen%1; vsock abgewiesen (Seccomp); $XDG_RUNTIME_DIR unlesbar; ask: vor jedem Start gefragt; allow: freigegeben; in jedem Modus weist die Engine Protokollverbindungen von Prozessen ab, die sie in die Sandbox gesetzt hat (sie stammen von sandbox-init ab), und protokolliert sie</translation>
    </message>
    <message>
        <source>Needs allowed domains. The filtering proxy checks every target against the allowed and denied domains first, then reaches it only through the upstream proxy (CONNECT host:port, over TLS to the proxy when its URL is https, verified against the system&apos;s authorities and the policy&apos;s extra ones; plain HTTP requests too), never directly; the upstream proxy resolves the names (IP literals are still checked against internal addresses here). Its credential is read from the secret storage when a connection needs it and sent to the upstream proxy alone (Proxy-Authorization: Basic), never into the sandbox. Its refusals (407, 403) are reported as network refusals; its other failures, and an unreachable proxy, answer the command&apos;s connection with the reason. Toward a credential&apos;s hosts the real host&apos;s certificate is still verified through the tunnel.</source>
        <translation>Benötigt erlaubte Domains. Der Filter-Proxy prüft jedes Ziel zuerst gegen die erlaubten und verbotenen Domains und erreicht es dann nur über den vorgeschalteten Proxy (CONNECT host:port, per TLS zum Proxy, wenn seine URL https ist, geprüft gegen die Zertifizierungsstellen des Systems und die zusätzlichen der Richtlinie; auch einfache HTTP-Anfragen), nie direkt; der vorgeschaltete Proxy löst die Namen auf (IP-Literale werden hier weiterhin gegen interne Adressen geprüft). Seine Zugangsdaten werden aus dem Geheimnisspeicher gelesen, wenn eine Verbindung sie braucht, und nur an den vorgeschalteten Proxy gesendet (Proxy-Authorization: Basic), nie in die Sandbox. Seine Verweigerungen (407, 403) werden als Netzwerkverweigerungen gemeldet; seine anderen Fehler und ein unerreichbarer Proxy beantworten die Verbindung des Befehls mit dem Grund. Zu den Hosts einer Zugangsberechtigung wird das Zertifikat des echten Hosts weiterhin durch den Tunnel geprüft.</translation>
    </message>
    <message>
        <source>Each command gets a filtering agent of the engine&apos;s own, named by SSH_AUTH_SOCK (the user&apos;s agent socket stays hidden): it lists and signs with the policy&apos;s keys only, asks the user before a signature as the policy&apos;s confirm says, passes no extension but session-bind@openssh.com, refuses adding, removing, locking and unlocking keys, and reports every refusal. That socket is the one unix socket the command may connect to besides the proxy&apos;s: seccomp hands every connect() to sandbox-init, which makes that connection itself, through a descriptor opened before the command ran, and refuses every other address; datagram unix sockets are refused. The agent ends with the command. SSH connections (the policy&apos;s hosts, port 22 unless one is given; they need the network mode allowlist) go only through the filtering proxy, which allows those hosts beside the allowed domains: git uses an SSH configuration of the engine&apos;s (GIT_SSH_COMMAND; others: ssh -F &quot;$SANDBOX_SSH_CONFIG&quot;) whose ProxyCommand is sandbox-init&apos;s tunnel through the proxy, whose host keys are the user&apos;s known-hosts entries for those hosts, copied read-only and checked strictly, and which reads none of the user&apos;s SSH options. Under the allowlist and none modes an ssh that ignores that configuration reaches nothing, as the sandbox has no other way out; under full the host&apos;s network is open, and SSH goes wherever it is pointed.</source>
        <translation>Jeder Befehl erhält einen eigenen filternden Agenten der Engine, über SSH_AUTH_SOCK benannt (der Agenten-Socket des Benutzers bleibt verborgen): Er listet nur die Schlüssel der Richtlinie und signiert nur mit ihnen, fragt den Benutzer vor einer Signatur, wie es confirm der Richtlinie verlangt, lässt keine Erweiterung außer session-bind@openssh.com durch, verweigert das Hinzufügen, Entfernen, Sperren und Entsperren von Schlüsseln und meldet jede Verweigerung. Dieser Socket ist neben dem des Proxys der einzige Unix-Socket, mit dem sich der Befehl verbinden darf: seccomp übergibt jeden connect()-Aufruf an sandbox-init, das diese Verbindung selbst herstellt, über einen Deskriptor, der vor dem Befehl geöffnet wurde, und jede andere Adresse verweigert; Unix-Datagramm-Sockets werden verweigert. Der Agent endet mit dem Befehl. SSH-Verbindungen (zu den Hosts der Richtlinie, Port 22, sofern keiner angegeben ist; sie benötigen den Netzwerkmodus allowlist) laufen nur über den Filter-Proxy, der diese Hosts neben den erlaubten Domains zulässt: git verwendet eine SSH-Konfiguration der Engine (GIT_SSH_COMMAND; andere: ssh -F &quot;$SANDBOX_SSH_CONFIG&quot;), deren ProxyCommand der Tunnel von sandbox-init durch den Proxy ist, deren Hostschlüssel die Einträge der bekannten Hosts des Benutzers für diese Hosts sind, schreibgeschützt kopiert und streng geprüft, und die keine SSH-Optionen des Benutzers liest. In den Modi allowlist und none erreicht ein ssh, das diese Konfiguration übergeht, nichts, da die Sandbox keinen anderen Weg nach draußen hat; im Modus full ist das Netzwerk des Hosts offen, und SSH geht, wohin es gerichtet wird.</translation>
    </message>
    <message>
        <source>the repository files that make git run code are protected at the moment of the write, under every writable path but /tmp and /dev/shm: every open for writing, truncate, mkdir, mknod, symlink, link, rename, unlink and rmdir is made by sandbox-init on the command&apos;s behalf (seccomp user notification; the paths read from the command once and resolved as the kernel would) and refused when it would create, write, move or remove an entry named .git (no new repository, no .git file or link pointing elsewhere, in existing and new folders at any depth), change anything in a git directory (a .git, a bare repository, modules/*, worktrees/*) but what git writes during ordinary work (objects, refs, logs, index, HEAD, packed-refs, *.lock, the command&apos;s own rebase state), make a HEAD outside one, move anything into or out of one, change a read-only path of the policy or move a folder holding one, or change a file that has other hard links (they may lie outside the writable paths); so git add, commit, branch, stash, rebase and fetch work, git init and git clone inside the workspace do not; rebase and sequencer state the command leaves behind is removed when it ends; each refusal is reported; openat2 is refused (programs fall back to openat); a chmod that sets an execute bit is made by sandbox-init too and refused on those files, so a hook left non-executable stays so; not judged: a unix socket bound to such a name (bind), which holds no code but, taking a hook&apos;s name, makes the host&apos;s git fail to run that hook</source>
        <translation>die Repository-Dateien, die Git Code ausführen lassen, sind im Moment des Schreibens geschützt, unter jedem beschreibbaren Pfad außer /tmp und /dev/shm: Jedes Öffnen zum Schreiben, truncate, mkdir, mknod, symlink, link, rename, unlink und rmdir führt sandbox-init für den Befehl aus (seccomp-Benutzerbenachrichtigung; die Pfade einmal aus dem Befehl gelesen und aufgelöst wie vom Kernel) und weist es ab, wenn es einen Eintrag namens .git anlegen, schreiben, verschieben oder entfernen würde (kein neues Repository, keine .git-Datei und kein .git-Link, der anderswohin zeigt, in vorhandenen und neuen Ordnern beliebiger Tiefe), in einem Git-Verzeichnis (ein .git, ein Bare-Repository, modules/*, worktrees/*) etwas anderes ändern würde als das, was Git bei gewöhnlicher Arbeit schreibt (Objekte, Refs, Logs, Index, HEAD, packed-refs, *.lock, der eigene Rebase-Zustand des Befehls), ein HEAD außerhalb eines solchen anlegen, etwas hinein- oder herausverschieben, einen schreibgeschützten Pfad der Richtlinie ändern oder einen Ordner verschieben würde, der einen enthält, oder eine Datei ändern würde, die weitere harte Links hat (sie können außerhalb der beschreibbaren Pfade liegen); git add, commit, branch, stash, rebase und fetch funktionieren also, git init und git clone im Arbeitsbereich nicht; Rebase- und Sequencer-Zustand, den der Befehl zurücklässt, wird bei seinem Ende entfernt; jede Abweisung wird gemeldet; openat2 wird abgewiesen (Programme weichen auf openat aus); ein chmod, das ein Ausführungsbit setzt, führt ebenfalls sandbox-init aus und verweigert es für diese Dateien, sodass ein nicht ausführbar gelassener Hook es bleibt; nicht geprüft: ein Unix-Socket, der unter einem solchen Namen gebunden wird (bind); er enthält keinen Code, lässt aber, wenn er den Namen eines Hooks belegt, das git des Hosts beim Ausführen dieses Hooks scheitern</translation>
    </message>
</context>
<context>
    <name>sandbox::BackendDescriptor</name>
    <message>
        <source>a backend needs a name</source>
        <translation>ein Backend braucht einen Namen</translation>
    </message>
    <message>
        <source>is too long (%1 characters, at most %2)</source>
        <translation>ist zu lang (%1 Zeichen, höchstens %2)</translation>
    </message>
    <message>
        <source>too many fields (%1, at most %2)</source>
        <translation>zu viele Felder (%1, höchstens %2)</translation>
    </message>
    <message>
        <source>duplicate field id &quot;%1&quot; (also fields[%2])</source>
        <translation>doppelte Feld-ID „%1“ (auch fields[%2])</translation>
    </message>
    <message>
        <source>unknown platform %1; expected one of %2</source>
        <translation>unbekannte Plattform %1; erwartet wird eine von %2</translation>
    </message>
    <message>
        <source>platform %1 is listed twice</source>
        <translation>Plattform %1 ist doppelt aufgeführt</translation>
    </message>
    <message>
        <source>unknown policy dimension %1; expected one of %2</source>
        <translation>unbekannte Richtliniendimension %1; erwartet wird eine von %2</translation>
    </message>
    <message>
        <source>must not be empty</source>
        <translation>darf nicht leer sein</translation>
    </message>
    <message>
        <source>unknown launcher call %1; expected one of %2</source>
        <translation>unbekannter Launcher-Aufruf %1; erwartet wird einer von %2</translation>
    </message>
    <message>
        <source>must be whole seconds from 1 to %1, got %2</source>
        <translation>müssen ganze Sekunden von 1 bis %1 sein, %2 erhalten</translation>
    </message>
    <message>
        <source>expected one of %1</source>
        <translation>erwartet wird eines von %1</translation>
    </message>
    <message>
        <source>expected whole seconds from 1 to %1, got %2</source>
        <translation>ganze Sekunden von 1 bis %1 erwartet, %2 erhalten</translation>
    </message>
</context>
<context>
    <name>sandbox::BackendHost</name>
    <message>
        <source>network: %1</source>
        <translation>Netzwerk: %1</translation>
    </message>
    <message>
        <source>This engine offers no credential injection.</source>
        <translation>Diese Engine bietet kein Einsetzen von Zugangsdaten.</translation>
    </message>
    <message>
        <source>credential: %1</source>
        <translation>Zugangsdatum: %1</translation>
    </message>
</context>
<context>
    <name>sandbox::BackendInfo</name>
    <message>
        <source>missing required key</source>
        <translation>erforderlicher Schlüssel fehlt</translation>
    </message>
    <message>
        <source>unknown policy dimension %1; expected one of %2</source>
        <translation>unbekannte Richtliniendimension %1; erwartet wird eine von %2</translation>
    </message>
    <message>
        <source>%1 is listed twice</source>
        <translation>%1 ist doppelt aufgeführt</translation>
    </message>
    <message>
        <source>%1 is not a field of this backend</source>
        <translation>%1 ist kein Feld dieses Backends</translation>
    </message>
</context>
<context>
    <name>sandbox::BackendRef</name>
    <message>
        <source>%1 is not a backend reference: too long</source>
        <translation>%1 ist keine Backend-Referenz: zu lang</translation>
    </message>
    <message>
        <source>%1: kind %2 must match %3</source>
        <translation>%1: Art %2 muss %3 entsprechen</translation>
    </message>
    <message>
        <source>%1: pack id %2 must match %3</source>
        <translation>%1: Paket-ID %2 muss %3 entsprechen</translation>
    </message>
    <message>
        <source>%1 is not a backend reference; expected %2</source>
        <translation>%1 ist keine Backend-Referenz; erwartet wird %2</translation>
    </message>
    <message>
        <source>unknown source %1; expected &quot;builtin&quot; or &quot;atom-pack&quot;</source>
        <translation>unbekannte Quelle %1; erwartet wird „builtin“ oder „atom-pack“</translation>
    </message>
    <message>
        <source>%1 must match %2</source>
        <translation>%1 muss %2 entsprechen</translation>
    </message>
</context>
<context>
    <name>sandbox::BaselineCache</name>
    <message>
        <source>cannot create %1: %2</source>
        <translation>%1 kann nicht angelegt werden: %2</translation>
    </message>
    <message>
        <source>%1 is not a directory of this user</source>
        <translation>%1 ist kein Verzeichnis dieses Benutzers</translation>
    </message>
</context>
<context>
    <name>sandbox::BaselineManifest</name>
    <message>
        <source>not a JSON object (%1)</source>
        <translation>kein JSON-Objekt (%1)</translation>
    </message>
    <message>
        <source>missing or not a string</source>
        <translation>fehlt oder ist keine Zeichenkette</translation>
    </message>
    <message>
        <source>not a sha256 digest in lowercase hex</source>
        <translation>keine sha256-Prüfsumme in Hex-Kleinbuchstaben</translation>
    </message>
    <message>
        <source>missing or not a non-negative integer</source>
        <translation>fehlt oder ist keine nicht negative ganze Zahl</translation>
    </message>
    <message>
        <source>missing or not a non-empty array</source>
        <translation>fehlt oder ist kein nicht leeres Array</translation>
    </message>
    <message>
        <source>holds something other than strings</source>
        <translation>enthält etwas anderes als Zeichenketten</translation>
    </message>
    <message>
        <source>missing or not an object</source>
        <translation>fehlt oder ist kein Objekt</translation>
    </message>
</context>
<context>
    <name>sandbox::CertificateAuthority</name>
    <message>
        <source>cannot write: %1</source>
        <translation>kann nicht schreiben: %1</translation>
    </message>
    <message>
        <source>cannot write the file whole</source>
        <translation>die Datei kann nicht vollständig geschrieben werden</translation>
    </message>
    <message>
        <source>holds only one of %1 and %2; rotate the engine&apos;s certificate authority to make a new one</source>
        <translation>enthält nur eine von %1 und %2; erneuern Sie die Zertifizierungsstelle der Engine, um eine neue anzulegen</translation>
    </message>
    <message>
        <source>must be a file of this user&apos;s that nobody else can read (mode 0600)</source>
        <translation>muss eine Datei dieses Benutzers sein, die niemand sonst lesen kann (Modus 0600)</translation>
    </message>
    <message>
        <source>cannot read the engine&apos;s certificate authority</source>
        <translation>die Zertifizierungsstelle der Engine kann nicht gelesen werden</translation>
    </message>
    <message>
        <source>is not a PEM certificate</source>
        <translation>ist kein PEM-Zertifikat</translation>
    </message>
    <message>
        <source>is not a PEM private key</source>
        <translation>ist kein privater PEM-Schlüssel</translation>
    </message>
    <message>
        <source>does not belong to %1</source>
        <translation>gehört nicht zu %1</translation>
    </message>
    <message>
        <source>cannot make a key for the engine&apos;s certificate authority</source>
        <translation>für die Zertifizierungsstelle der Engine kann kein Schlüssel erzeugt werden</translation>
    </message>
    <message>
        <source>cannot sign the engine&apos;s certificate authority</source>
        <translation>die Zertifizierungsstelle der Engine kann nicht signiert werden</translation>
    </message>
    <message>
        <source>cannot encode the engine&apos;s certificate authority</source>
        <translation>die Zertifizierungsstelle der Engine kann nicht kodiert werden</translation>
    </message>
    <message>
        <source>no certificate is made for &quot;%1&quot;: not a host name</source>
        <translation>für „%1“ wird kein Zertifikat erzeugt: kein Hostname</translation>
    </message>
    <message>
        <source>cannot make a key for %1</source>
        <translation>für %1 kann kein Schlüssel erzeugt werden</translation>
    </message>
    <message>
        <source>cannot sign a certificate for %1</source>
        <translation>ein Zertifikat für %1 kann nicht signiert werden</translation>
    </message>
    <message>
        <source>cannot encode the certificate for %1</source>
        <translation>das Zertifikat für %1 kann nicht kodiert werden</translation>
    </message>
</context>
<context>
    <name>sandbox::Client</name>
    <message>
        <source>not connected to the engine: %1</source>
        <translation>nicht mit der Engine verbunden: %1</translation>
    </message>
    <message>
        <source>the request is larger than the protocol&apos;s message limit</source>
        <translation>die Anfrage ist größer als die Nachrichtengrenze des Protokolls</translation>
    </message>
    <message>
        <source>the engine closed the connection</source>
        <translation>die Engine hat die Verbindung geschlossen</translation>
    </message>
    <message>
        <source>the engine refused the handshake: %1</source>
        <translation>die Engine hat den Verbindungsaufbau abgelehnt: %1</translation>
    </message>
    <message>
        <source>the client was destroyed</source>
        <translation>der Client wurde zerstört</translation>
    </message>
    <message>
        <source>missing process id</source>
        <translation>Prozess-ID fehlt</translation>
    </message>
    <message>
        <source>expected an object</source>
        <translation>Objekt erwartet</translation>
    </message>
    <message>
        <source>must be a non-empty string</source>
        <translation>muss eine nicht leere Zeichenkette sein</translation>
    </message>
    <message>
        <source>expected a PEM certificate</source>
        <translation>ein PEM-Zertifikat erwartet</translation>
    </message>
</context>
<context>
    <name>sandbox::CredentialInjector</name>
    <message>
        <source>cannot read the system&apos;s certificates in %1</source>
        <translation>die Zertifikate des Systems in %1 können nicht gelesen werden</translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>%1 holds no PEM certificate</source>
        <translation>%1 enthält kein PEM-Zertifikat</translation>
    </message>
    <message>
        <source>cannot write the certificate bundle %1</source>
        <translation>das Zertifikatsbündel %1 kann nicht geschrieben werden</translation>
    </message>
</context>
<context>
    <name>sandbox::CredentialStore</name>
    <message>
        <source>credential name %1</source>
        <translation>Name des Zugangsdatums %1</translation>
    </message>
    <message>
        <source>an empty value stores nothing; remove the credential instead</source>
        <translation>ein leerer Wert speichert nichts; entfernen Sie stattdessen das Zugangsdatum</translation>
    </message>
    <message>
        <source>the value contains a control character (a line break?); it cannot be sent in a header</source>
        <translation>der Wert enthält ein Steuerzeichen (einen Zeilenumbruch?); er kann nicht in einem Header gesendet werden</translation>
    </message>
</context>
<context>
    <name>sandbox::DomainRules</name>
    <message>
        <source>&apos;%1&apos;: unterminated IPv6 address</source>
        <translation>„%1“: nicht abgeschlossene IPv6-Adresse</translation>
    </message>
    <message>
        <source>&apos;%1&apos;: expected &apos;:port&apos; after the address</source>
        <translation>„%1“: nach der Adresse wird „:Port“ erwartet</translation>
    </message>
    <message>
        <source>&apos;%1&apos;: empty port</source>
        <translation>„%1“: leerer Port</translation>
    </message>
    <message>
        <source>&apos;%1&apos;: port must be 1-65535</source>
        <translation>„%1“: Port muss zwischen 1 und 65535 liegen</translation>
    </message>
    <message>
        <source>&apos;%1&apos;: &apos;*&apos; is only allowed as a leading &apos;*.&apos; label</source>
        <translation>„%1“: „*“ ist nur als führendes Label „*.“ erlaubt</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a valid domain name or IP address</source>
        <translation>„%1“ ist kein gültiger Domainname und keine IP-Adresse</translation>
    </message>
    <message>
        <source>&apos;%1&apos;: a wildcard cannot apply to an IP address</source>
        <translation>„%1“: ein Platzhalter kann nicht für eine IP-Adresse gelten</translation>
    </message>
    <message>
        <source>invalid domain entries</source>
        <translation>ungültige Domain-Einträge</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a valid host name</source>
        <translation>„%1“ ist kein gültiger Hostname</translation>
    </message>
    <message>
        <source>%1:%2 is denied by the policy entry &apos;%3&apos;</source>
        <translation>%1:%2 ist durch den Richtlinieneintrag „%3“ verboten</translation>
    </message>
    <message>
        <source>%1:%2 is not in the policy&apos;s allowed domains</source>
        <translation>%1:%2 gehört nicht zu den erlaubten Domains der Richtlinie</translation>
    </message>
</context>
<context>
    <name>sandbox::Engine</name>
    <message>
        <source>The engine is shutting down.</source>
        <translation>Die Engine wird beendet.</translation>
    </message>
    <message>
        <source>The resources of %1 could not be released after %2 attempts (%3). Restart the application to release them.</source>
        <translation>Die Ressourcen von %1 konnten nach %2 Versuchen nicht freigegeben werden (%3). Starten Sie die Anwendung neu, um sie freizugeben.</translation>
    </message>
    <message>
        <source>The backend&apos;s availability probe ended without a result.</source>
        <translation>Die Verfügbarkeitsprüfung des Backends endete ohne Ergebnis.</translation>
    </message>
    <message>
        <source>The saved backend %1 could not be activated (%2); the built-in backend %3 is used instead.</source>
        <translation>Das gespeicherte Backend %1 konnte nicht aktiviert werden (%2); stattdessen wird das eingebaute Backend %3 verwendet.</translation>
    </message>
    <message>
        <source>No sandbox backend could be activated (%1). Commands will not run until a backend is activated.</source>
        <translation>Kein Sandbox-Backend konnte aktiviert werden (%1). Befehle laufen erst, wenn ein Backend aktiviert ist.</translation>
    </message>
    <message>
        <source>Cannot %1 the pack: its backend %2 is active and switching to the built-in backend %3 first failed (%4). Nothing was changed.</source>
        <translation>Das Paket kann nicht %1 werden: Sein Backend %2 ist aktiv, und der vorherige Wechsel zum eingebauten Backend %3 ist fehlgeschlagen (%4). Nichts wurde geändert.</translation>
    </message>
    <message>
        <source>A built-in backend could not be registered: no launcher was given.</source>
        <translation>Ein eingebautes Backend konnte nicht registriert werden: Es wurde kein Launcher übergeben.</translation>
    </message>
    <message>
        <source>Built-in</source>
        <translation>Integriert</translation>
    </message>
    <message>
        <source>The built-in backend %1 could not be registered: %2</source>
        <translation>Das eingebaute Backend %1 konnte nicht registriert werden: %2</translation>
    </message>
    <message>
        <source>The backend&apos;s factory did not create a launcher.</source>
        <translation>Die Fabrik des Backends hat keinen Launcher erzeugt.</translation>
    </message>
    <message>
        <source>(not shown: the backend&apos;s claim is not plain text)</source>
        <translation>(nicht angezeigt: die Angabe des Backends ist kein reiner Text)</translation>
    </message>
    <message>
        <source>Its pack &quot;%1&quot; is disabled. Enable the pack to use this backend.</source>
        <translation>Sein Paket „%1“ ist ausgeschaltet. Schalten Sie das Paket ein, um dieses Backend zu benutzen.</translation>
    </message>
    <message>
        <source>No backend %1 is registered.</source>
        <translation>Kein Backend %1 ist registriert.</translation>
    </message>
    <message>
        <source>This backend is active: apply its settings by activating it again, so the running backend and the saved settings never disagree.</source>
        <translation>Dieses Backend ist aktiv: Übernehmen Sie seine Einstellungen, indem Sie es erneut aktivieren, damit laufendes Backend und gespeicherte Einstellungen nie voneinander abweichen.</translation>
    </message>
    <message>
        <source>No sandbox backend is active, so nothing was run (commands never run unconfined). Activate a backend first.</source>
        <translation>Kein Sandbox-Backend ist aktiv, daher wurde nichts ausgeführt (Befehle laufen nie unbeschränkt). Aktivieren Sie zuerst ein Backend.</translation>
    </message>
    <message>
        <source>The backend did not start the command.</source>
        <translation>Das Backend hat den Befehl nicht gestartet.</translation>
    </message>
    <message>
        <source>No such process.</source>
        <translation>Kein solcher Prozess.</translation>
    </message>
    <message>
        <source>The process has already ended.</source>
        <translation>Der Prozess ist bereits beendet.</translation>
    </message>
    <message>
        <source>Secrets are stored in plain text in %1, because plaintext secret storage is allowed. Anyone who can read your files can read them.</source>
        <translation>Geheimnisse werden im Klartext in %1 gespeichert, weil die Speicherung im Klartext erlaubt ist. Wer Ihre Dateien lesen kann, kann sie lesen.</translation>
    </message>
    <message>
        <source>starting %1</source>
        <translation>Start von %1</translation>
    </message>
    <message>
        <source>confinement: no sandbox backend is active</source>
        <translation>Eingrenzung: kein Sandbox-Backend ist aktiv</translation>
    </message>
    <message>
        <source>confinement: the backend cannot enforce %1, which the policy restricts</source>
        <translation>Eingrenzung: das Backend kann %1 nicht durchsetzen, was die Richtlinie einschränkt</translation>
    </message>
    <message>
        <source>%1 cannot give the command a terminal, so nothing was run: %2</source>
        <translation>%1 kann dem Befehl kein Terminal geben, daher wurde nichts ausgeführt: %2</translation>
    </message>
    <message>
        <source>%1 lies in %2, which the command may write: it could make the proxy trust a certificate authority of its own; nothing was run</source>
        <translation>%1 liegt in %2, wo der Befehl schreiben darf: Er könnte den Proxy einer eigenen Zertifizierungsstelle vertrauen lassen; nichts wurde ausgeführt</translation>
    </message>
</context>
<context>
    <name>sandbox::EngineFiles</name>
    <message>
        <source>The writable path %1 reaches the engine&apos;s directory %2, and this sandbox tier (Landlock + seccomp, no namespaces) cannot keep that directory read-only inside a writable path: the command could rewrite the engine&apos;s policy, settings or rendezvous points and loosen every command after it, so nothing was run. Run the command from a project folder that does not contain the engine&apos;s directories (not from the home directory), keep the engine&apos;s directories out of the policy&apos;s writable paths, or use a system where the namespace tier is available.</source>
        <translation>Der beschreibbare Pfad %1 erreicht das Verzeichnis %2 der Engine, und diese Sandbox-Stufe (Landlock + seccomp, ohne Namensräume) kann dieses Verzeichnis innerhalb eines beschreibbaren Pfads nicht schreibgeschützt halten: Der Befehl könnte Richtlinie, Einstellungen oder Treffpunkte der Engine umschreiben und jeden späteren Befehl lockern, daher wurde nichts ausgeführt. Führen Sie den Befehl aus einem Projektordner aus, der die Verzeichnisse der Engine nicht enthält (nicht aus dem Home-Verzeichnis), halten Sie die Verzeichnisse der Engine aus den beschreibbaren Pfaden der Richtlinie heraus, oder nutzen Sie ein System, auf dem die Namensraum-Stufe verfügbar ist.</translation>
    </message>
</context>
<context>
    <name>sandbox::Error</name>
    <message>
        <source>details nest too deeply (at most %1 levels)</source>
        <translation>Details sind zu tief verschachtelt (höchstens %1 Ebenen)</translation>
    </message>
    <message>
        <source>too many details (%1, at most %2)</source>
        <translation>zu viele Details (%1, höchstens %2)</translation>
    </message>
</context>
<context>
    <name>sandbox::ExitStatus</name>
    <message>
        <source>a signaled exit must name its signal</source>
        <translation>ein durch ein Signal beendeter Prozess muss sein Signal nennen</translation>
    </message>
    <message>
        <source>only a signaled exit has a signal</source>
        <translation>nur ein durch ein Signal beendeter Prozess hat ein Signal</translation>
    </message>
</context>
<context>
    <name>sandbox::FatImage</name>
    <message>
        <source>the boot loader (%1 bytes) is too large for a FAT16 system partition</source>
        <translation>der Bootloader (%1 Bytes) ist zu groß für eine FAT16-Systempartition</translation>
    </message>
</context>
<context>
    <name>sandbox::FieldSpec</name>
    <message>
        <source>expected %1, got %2</source>
        <translation>%1 erwartet, %2 erhalten</translation>
    </message>
    <message>
        <source>is too long (at most %1 characters)</source>
        <translation>ist zu lang (höchstens %1 Zeichen)</translation>
    </message>
    <message>
        <source>must be a finite number</source>
        <translation>muss eine endliche Zahl sein</translation>
    </message>
    <message>
        <source>%1 is below the minimum %2</source>
        <translation>%1 liegt unter dem Minimum %2</translation>
    </message>
    <message>
        <source>%1 is above the maximum %2</source>
        <translation>%1 liegt über dem Maximum %2</translation>
    </message>
    <message>
        <source>%1 is not one of the options (%2)</source>
        <translation>%1 ist keine der Optionen (%2)</translation>
    </message>
    <message>
        <source>is a secret field; set it as a secret, never as a plain value</source>
        <translation>ist ein geheimes Feld; setzen Sie es als Geheimnis, nie als einfachen Wert</translation>
    </message>
    <message>
        <source>has an unknown field type</source>
        <translation>hat einen unbekannten Feldtyp</translation>
    </message>
    <message>
        <source>%1 is not a valid field id; expected [A-Za-z][A-Za-z0-9_.-]{0,63}</source>
        <translation>%1 ist keine gültige Feld-ID; erwartet wird [A-Za-z][A-Za-z0-9_.-]{0,63}</translation>
    </message>
    <message>
        <source>field &quot;%1&quot; has an unknown type</source>
        <translation>Feld „%1“ hat einen unbekannten Typ</translation>
    </message>
    <message>
        <source>field &quot;%1&quot; needs a label</source>
        <translation>Feld „%1“ braucht eine Beschriftung</translation>
    </message>
    <message>
        <source>field &quot;%1&quot;: label %2</source>
        <translation>Feld „%1“: Beschriftung %2</translation>
    </message>
    <message>
        <source>field &quot;%1&quot;: description %2</source>
        <translation>Feld „%1“: Beschreibung %2</translation>
    </message>
    <message>
        <source>select field &quot;%1&quot; needs at least one option</source>
        <translation>Auswahlfeld „%1“ braucht mindestens eine Option</translation>
    </message>
    <message>
        <source>select field &quot;%1&quot; has too many options (%2, at most %3)</source>
        <translation>Auswahlfeld „%1“ hat zu viele Optionen (%2, höchstens %3)</translation>
    </message>
    <message>
        <source>select field &quot;%1&quot; has an option with an empty value</source>
        <translation>Auswahlfeld „%1“ hat eine Option mit leerem Wert</translation>
    </message>
    <message>
        <source>field &quot;%1&quot;: option value %2</source>
        <translation>Feld „%1“: Optionswert %2</translation>
    </message>
    <message>
        <source>field &quot;%1&quot;: option label %2</source>
        <translation>Feld „%1“: Optionsbeschriftung %2</translation>
    </message>
    <message>
        <source>select field &quot;%1&quot; has the option value %2 twice</source>
        <translation>Auswahlfeld „%1“ hat den Optionswert %2 doppelt</translation>
    </message>
    <message>
        <source>field &quot;%1&quot; is a %2 field; only select fields have options</source>
        <translation>Feld „%1“ ist ein Feld vom Typ %2; nur Auswahlfelder haben Optionen</translation>
    </message>
    <message>
        <source>field &quot;%1&quot;: min must be finite</source>
        <translation>Feld „%1“: min muss endlich sein</translation>
    </message>
    <message>
        <source>field &quot;%1&quot;: max must be finite</source>
        <translation>Feld „%1“: max muss endlich sein</translation>
    </message>
    <message>
        <source>field &quot;%1&quot;: min (%2) is greater than max (%3)</source>
        <translation>Feld „%1“: min (%2) ist größer als max (%3)</translation>
    </message>
    <message>
        <source>field &quot;%1&quot; is a %2 field; only number fields have min and max</source>
        <translation>Feld „%1“ ist ein Feld vom Typ %2; nur Zahlenfelder haben min und max</translation>
    </message>
    <message>
        <source>field &quot;%1&quot; is a %2 field; only number fields have a unit</source>
        <translation>Feld „%1“ ist ein Feld vom Typ %2; nur Zahlenfelder haben eine Einheit</translation>
    </message>
    <message>
        <source>secret field &quot;%1&quot; cannot have a default</source>
        <translation>geheimes Feld „%1“ kann keinen Standardwert haben</translation>
    </message>
    <message>
        <source>invalid default for field &quot;%1&quot;: %2</source>
        <translation>ungültiger Standardwert für Feld „%1“: %2</translation>
    </message>
    <message>
        <source>field &quot;%1&quot; has the unknown type %2; expected string, number, boolean, select or secret</source>
        <translation>Feld „%1“ hat den unbekannten Typ %2; erwartet: string, number, boolean, select oder secret</translation>
    </message>
    <message>
        <source>field &quot;%1&quot; has the unknown unit %2; expected bytes</source>
        <translation>Feld „%1“ hat die unbekannte Einheit %2; erwartet: bytes</translation>
    </message>
    <message>
        <source>expected a number, got &quot;%1&quot;</source>
        <translation>eine Zahl erwartet, erhalten: „%1“</translation>
    </message>
    <message>
        <source>expected true or false, got &quot;%1&quot;</source>
        <translation>true oder false erwartet, erhalten: „%1“</translation>
    </message>
    <message>
        <source>expected a number, or a size such as 4GiB or 512 MiB (KiB, MiB, GiB or TiB), got &quot;%1&quot;</source>
        <translation>erwartet wird eine Zahl oder eine Größe wie 4GiB oder 512 MiB (KiB, MiB, GiB oder TiB), erhalten: &quot;%1&quot;</translation>
    </message>
</context>
<context>
    <name>sandbox::FilteringProxy</name>
    <message>
        <source>cannot create the proxy&apos;s runtime directory: %1</source>
        <translation>das Laufzeitverzeichnis des Proxys kann nicht angelegt werden: %1</translation>
    </message>
    <message>
        <source>cannot create the channel directory %1</source>
        <translation>das Kanalverzeichnis %1 kann nicht angelegt werden</translation>
    </message>
    <message>
        <source>cannot use the engine&apos;s runtime directory for the proxy: %1</source>
        <translation>das Laufzeitverzeichnis der Engine ist für den Proxy nicht nutzbar: %1</translation>
    </message>
</context>
<context>
    <name>sandbox::FrameDecoder</name>
    <message>
        <source>protocol error: empty frame (length 0)</source>
        <translation>Protokollfehler: leerer Frame (Länge 0)</translation>
    </message>
    <message>
        <source>protocol error: message of %1 bytes exceeds the limit of %2 bytes</source>
        <translation>Protokollfehler: Nachricht mit %1 Bytes überschreitet die Grenze von %2 Bytes</translation>
    </message>
    <message>
        <source>protocol error: connection closed inside a frame header (%1 of 4 bytes)</source>
        <translation>Protokollfehler: Verbindung innerhalb eines Frame-Headers geschlossen (%1 von 4 Bytes)</translation>
    </message>
    <message>
        <source>protocol error: connection closed inside a frame (%1 of %2 bytes)</source>
        <translation>Protokollfehler: Verbindung innerhalb eines Frames geschlossen (%1 von %2 Bytes)</translation>
    </message>
</context>
<context>
    <name>sandbox::GuestImage</name>
    <message>
        <source>no guest kernel: /boot has no vmlinuz-* (install the generic kernel package, linux-image-amd64 on Debian, or set the kernel setting)</source>
        <translation>kein Gast-Kernel: /boot enthält kein vmlinuz-* (installieren Sie das generische Kernel-Paket, linux-image-amd64 unter Debian, oder setzen Sie die Kernel-Einstellung)</translation>
    </message>
    <message>
        <source>no kernel in /boot has the 9p, virtio-mmio and virtio-console modules the guest needs (rejected: %1; the cloud kernel lacks 9p: install linux-image-amd64)</source>
        <translation>kein Kernel in /boot hat die Module 9p, virtio-mmio und virtio-console, die der Gast braucht (abgelehnt: %1; dem Cloud-Kernel fehlt 9p: installieren Sie linux-image-amd64)</translation>
    </message>
    <message>
        <source>%1 is dynamically linked and cannot run in the guest: install the static build (busybox-static on Debian)</source>
        <translation>%1 ist dynamisch gelinkt und kann im Gast nicht laufen: Installieren Sie den statischen Build (busybox-static unter Debian)</translation>
    </message>
    <message>
        <source>busybox was not found (install busybox-static)</source>
        <translation>busybox wurde nicht gefunden (installieren Sie busybox-static)</translation>
    </message>
    <message>
        <source>the kernel file name carries no version (expected vmlinuz-&lt;version&gt;)</source>
        <translation>der Dateiname des Kernels enthält keine Version (erwartet: vmlinuz-&lt;version&gt;)</translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation>%1 kann nicht gelesen werden: %2</translation>
    </message>
    <message>
        <source>kernel %1 has no module %2</source>
        <translation>Kernel %1 hat kein Modul %2</translation>
    </message>
    <message>
        <source>the module %1 is compressed; the guest loads plain .ko files</source>
        <translation>das Modul %1 ist komprimiert; der Gast lädt einfache .ko-Dateien</translation>
    </message>
    <message>
        <source>the kernel %1 is not readable</source>
        <translation>der Kernel %1 ist nicht lesbar</translation>
    </message>
    <message>
        <source>cannot read %1</source>
        <translation>%1 kann nicht gelesen werden</translation>
    </message>
    <message>
        <source>cannot read the module %1</source>
        <translation>das Modul %1 kann nicht gelesen werden</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
</context>
<context>
    <name>sandbox::GuestLayout</name>
    <message>
        <source>the workspace must be an absolute directory other than / (got &quot;%1&quot;)</source>
        <translation>der Arbeitsbereich muss ein absolutes Verzeichnis außer / sein (erhalten: „%1“)</translation>
    </message>
    <message>
        <source>the workspace %1 is not a directory</source>
        <translation>der Arbeitsbereich %1 ist kein Verzeichnis</translation>
    </message>
    <message>
        <source>the workspace %1 is inside the denied path %2</source>
        <translation>der Arbeitsbereich %1 liegt im verbotenen Pfad %2</translation>
    </message>
    <message>
        <source>a writable / cannot be shared with a VM; name the writable directories</source>
        <translation>ein beschreibbares / kann nicht mit einer VM geteilt werden; nennen Sie die beschreibbaren Verzeichnisse</translation>
    </message>
    <message>
        <source>the path %1 contains a tab or line break and cannot be shared</source>
        <translation>der Pfad %1 enthält einen Tabulator oder Zeilenumbruch und kann nicht geteilt werden</translation>
    </message>
</context>
<context>
    <name>sandbox::GuestProxyLink</name>
    <message>
        <source>cannot listen on %1 for the guest&apos;s network forwarder: %2</source>
        <translation>kann auf %1 nicht für den Netzwerk-Forwarder des Gasts lauschen: %2</translation>
    </message>
</context>
<context>
    <name>sandbox::HelperStore</name>
    <message>
        <source>cannot create %1</source>
        <translation>%1 kann nicht angelegt werden</translation>
    </message>
    <message>
        <source>this build has no pinned digest for the helper %1</source>
        <translation>dieser Build hat keine festgelegte Prüfsumme für das Hilfsprogramm %1</translation>
    </message>
    <message>
        <source>%1 in %2 no longer matches its pin; fetching it again</source>
        <translation>%1 in %2 passt nicht mehr zu seiner Festlegung; es wird erneut geholt</translation>
    </message>
    <message>
        <source>the helper %1 from %2 was refused: its sha256 is %3 but this release pins %4; the file was deleted and nothing was run</source>
        <translation>das Hilfsprogramm %1 von %2 wurde abgewiesen: Seine sha256-Prüfsumme ist %3, dieses Release legt aber %4 fest; die Datei wurde gelöscht und nichts ausgeführt</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
    <message>
        <source>the helper source &quot;%1&quot; is not an absolute URL, so %2 cannot be fetched</source>
        <translation>die Quelle der Hilfsprogramme „%1“ ist keine absolute URL, daher kann %2 nicht geholt werden</translation>
    </message>
    <message>
        <source>fetching %1 from %2</source>
        <translation>%1 wird von %2 geholt</translation>
    </message>
    <message>
        <source>fetching %1: %2 of %3 bytes</source>
        <translation>%1 wird geholt: %2 von %3 Bytes</translation>
    </message>
    <message>
        <source>the helper %1 from %2 is larger than %3 bytes; refused</source>
        <translation>das Hilfsprogramm %1 von %2 ist größer als %3 Bytes; abgewiesen</translation>
    </message>
    <message>
        <source>cannot fetch the helper %1 from %2: %3. The VM backend needs it: check the helper source setting, or copy the offline bundle (packages/sandbox-vm) into the bin folder of the VM backend&apos;s state directory</source>
        <translation>das Hilfsprogramm %1 kann nicht von %2 geholt werden: %3. Das VM-Backend braucht es: Prüfen Sie die Einstellung für die Quelle der Hilfsprogramme oder kopieren Sie das Offline-Bündel (packages/sandbox-vm) in den bin-Ordner des Zustandsverzeichnisses des VM-Backends</translation>
    </message>
    <message>
        <source>HTTP status %1</source>
        <translation>HTTP-Status %1</translation>
    </message>
</context>
<context>
    <name>sandbox::HostInteractionRequest</name>
    <message>
        <source>interactions are data only</source>
        <translation>Rückfragen sind reine Daten</translation>
    </message>
    <message>
        <source>unknown kind &quot;%1&quot;; expected confirm, choice, text or secret</source>
        <translation>unbekannte Art „%1“; erwartet: confirm, choice, text oder secret</translation>
    </message>
    <message>
        <source>only a choice has options</source>
        <translation>nur eine Auswahl hat Optionen</translation>
    </message>
    <message>
        <source>a choice needs at least one option</source>
        <translation>eine Auswahl braucht mindestens eine Option</translation>
    </message>
    <message>
        <source>too many options (%1, at most %2)</source>
        <translation>zu viele Optionen (%1, höchstens %2)</translation>
    </message>
    <message>
        <source>option value is listed twice</source>
        <translation>Optionswert ist doppelt aufgeführt</translation>
    </message>
    <message>
        <source>a secret question cannot have a default</source>
        <translation>eine geheime Frage kann keinen Standardwert haben</translation>
    </message>
    <message>
        <source>the default is not one of the options</source>
        <translation>der Standardwert ist keine der Optionen</translation>
    </message>
    <message>
        <source>a confirmation has no default value</source>
        <translation>eine Bestätigung hat keinen Standardwert</translation>
    </message>
</context>
<context>
    <name>sandbox::HttpRequestRewriter</name>
    <message>
        <source>request header larger than %1 bytes</source>
        <translation>Anfrage-Header größer als %1 Bytes</translation>
    </message>
    <message>
        <source>a request body</source>
        <translation>einem Anfrage-Body</translation>
    </message>
    <message>
        <source>chunk line longer than %1 bytes</source>
        <translation>Chunk-Zeile länger als %1 Bytes</translation>
    </message>
    <message>
        <source>a trailer</source>
        <translation>einem Trailer</translation>
    </message>
    <message>
        <source>malformed chunk size</source>
        <translation>fehlerhafte Chunk-Größe</translation>
    </message>
    <message>
        <source>chunk data not followed by a line end</source>
        <translation>auf die Chunk-Daten folgt kein Zeilenende</translation>
    </message>
    <message>
        <source>a line of the request head ends without a carriage return</source>
        <translation>eine Zeile des Anfragekopfs endet ohne Wagenrücklauf</translation>
    </message>
    <message>
        <source>a control character in the request head</source>
        <translation>ein Steuerzeichen im Anfragekopf</translation>
    </message>
    <message>
        <source>malformed request line</source>
        <translation>fehlerhafte Anfragezeile</translation>
    </message>
    <message>
        <source>CONNECT inside a tunnel is not supported</source>
        <translation>CONNECT innerhalb eines Tunnels wird nicht unterstützt</translation>
    </message>
    <message>
        <source>the request line</source>
        <translation>der Anfragezeile</translation>
    </message>
    <message>
        <source>TRACE is not passed on a connection that carries credentials</source>
        <translation>TRACE wird auf einer Verbindung, die Zugangsdaten trägt, nicht weitergegeben</translation>
    </message>
    <message>
        <source>the request names %1, not %2, the host this connection was opened for (domain fronting)</source>
        <translation>die Anfrage nennt %1, nicht %2, den Host, für den diese Verbindung geöffnet wurde (Domain Fronting)</translation>
    </message>
    <message>
        <source>folded header lines are not accepted</source>
        <translation>gefaltete Header-Zeilen werden nicht akzeptiert</translation>
    </message>
    <message>
        <source>malformed header line</source>
        <translation>fehlerhafte Header-Zeile</translation>
    </message>
    <message>
        <source>bad Content-Length</source>
        <translation>ungültige Content-Length</translation>
    </message>
    <message>
        <source>protocol upgrades are not passed on a connection that carries credentials</source>
        <translation>Protokoll-Upgrades werden auf einer Verbindung, die Zugangsdaten trägt, nicht weitergegeben</translation>
    </message>
    <message>
        <source>a request needs exactly one Host header</source>
        <translation>eine Anfrage braucht genau einen Host-Header</translation>
    </message>
    <message>
        <source>the Host header names %1, not %2, the host this connection was opened for (domain fronting)</source>
        <translation>der Host-Header nennt %1, nicht %2, den Host, für den diese Verbindung geöffnet wurde (Domain Fronting)</translation>
    </message>
    <message>
        <source>a request with both Content-Length and Transfer-Encoding</source>
        <translation>eine Anfrage mit sowohl Content-Length als auch Transfer-Encoding</translation>
    </message>
    <message>
        <source>a transfer coding other than chunked</source>
        <translation>eine andere Transfer-Codierung als chunked</translation>
    </message>
    <message>
        <source>the header %1</source>
        <translation>dem Header %1</translation>
    </message>
    <message>
        <source>the placeholder of credential &quot;%1&quot; was sent to %2, which is not one of its hosts, in %3; it was not replaced</source>
        <translation>der Platzhalter des Zugangsdatums „%1“ wurde an %2 gesendet, der keiner seiner Hosts ist, und zwar in %3; er wurde nicht ersetzt</translation>
    </message>
    <message>
        <source>the placeholder of credential &quot;%1&quot; was sent to %2 in %3, where the policy does not let it be replaced; it was not replaced</source>
        <translation>der Platzhalter des Zugangsdatums „%1“ wurde an %2 gesendet, in %3, wo die Richtlinie ihn nicht ersetzen lässt; er wurde nicht ersetzt</translation>
    </message>
    <message>
        <source>credential &quot;%1&quot; has no stored value; its placeholder went to %2 unchanged</source>
        <translation>Zugangsdatum „%1“ hat keinen gespeicherten Wert; sein Platzhalter ging unverändert an %2</translation>
    </message>
    <message>
        <source>the value of credential &quot;%1&quot; contains a line break or NUL and cannot go into a header; it was not replaced</source>
        <translation>der Wert des Zugangsdatums „%1“ enthält einen Zeilenumbruch oder NUL und kann nicht in einen Header eingesetzt werden; er wurde nicht ersetzt</translation>
    </message>
    <message>
        <source>the placeholder of credential &quot;%1&quot; was sent to %2 in %3, where it is never replaced</source>
        <translation>der Platzhalter des Zugangsdatums „%1“ wurde an %2 gesendet, in %3, wo er nie ersetzt wird</translation>
    </message>
</context>
<context>
    <name>sandbox::HyperVBootDisk</name>
    <message>
        <source>EFI stub (package systemd-boot-efi)</source>
        <translation>EFI-Stub (Paket systemd-boot-efi)</translation>
    </message>
    <message>
        <source>guest kernel</source>
        <translation>Gast-Kernel</translation>
    </message>
    <message>
        <source>guest initramfs</source>
        <translation>Gast-Initramfs</translation>
    </message>
</context>
<context>
    <name>sandbox::HyperVDriver</name>
    <message>
        <source>Hyper-V runs on Windows only</source>
        <translation>Hyper-V läuft nur unter Windows</translation>
    </message>
    <message>
        <source>cannot write the checkpoint&apos;s name</source>
        <translation>der Name des Checkpoints kann nicht geschrieben werden</translation>
    </message>
    <message>
        <source>Checkpoint-VM failed: %1</source>
        <translation>Checkpoint-VM fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>cannot read the checkpoint&apos;s name</source>
        <translation>der Name des Checkpoints kann nicht gelesen werden</translation>
    </message>
    <message>
        <source>Restore-VMCheckpoint failed: %1</source>
        <translation>Restore-VMCheckpoint fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>the Hyper-V driver does not carry the guest&apos;s network forwarder yet, so network allowlist is not enforced with it; nothing was run</source>
        <translation>der Hyper-V-Treiber führt den Netzwerk-Forwarder des Gasts noch nicht, daher wird der Netzwerkmodus Allowlist damit nicht durchgesetzt; nichts wurde ausgeführt</translation>
    </message>
    <message>
        <source>the Hyper-V driver cannot run the guest yet: the engine does not carry the exec agent&apos;s channel through winvm-helper, and shares are not passed to a Hyper-V guest</source>
        <translation>der Hyper-V-Treiber kann den Gast noch nicht ausführen: die Engine führt den Kanal des Ausführungsagenten nicht über winvm-helper, und Freigaben werden an einen Hyper-V-Gast nicht weitergegeben</translation>
    </message>
</context>
<context>
    <name>sandbox::JsonReader</name>
    <message>
        <source>missing required key</source>
        <translation>erforderlicher Schlüssel fehlt</translation>
    </message>
    <message>
        <source>is too long (%1 characters, at most %2)</source>
        <translation>ist zu lang (%1 Zeichen, höchstens %2)</translation>
    </message>
    <message>
        <source>must not be empty</source>
        <translation>darf nicht leer sein</translation>
    </message>
    <message>
        <source>must be a finite number</source>
        <translation>muss eine endliche Zahl sein</translation>
    </message>
    <message>
        <source>expected an integer, got %1</source>
        <translation>ganze Zahl erwartet, %1 erhalten</translation>
    </message>
    <message>
        <source>must be between %1 and %2, got %3</source>
        <translation>muss zwischen %1 und %2 liegen, %3 erhalten</translation>
    </message>
    <message>
        <source>unknown key</source>
        <translation>unbekannter Schlüssel</translation>
    </message>
    <message>
        <source>unknown key; %1</source>
        <translation>unbekannter Schlüssel; %1</translation>
    </message>
    <message>
        <source>null</source>
        <translation>null</translation>
    </message>
    <message>
        <source>a boolean</source>
        <translation>ein Wahrheitswert</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>eine Zahl</translation>
    </message>
    <message>
        <source>a string</source>
        <translation>eine Zeichenkette</translation>
    </message>
    <message>
        <source>an array</source>
        <translation>ein Array</translation>
    </message>
    <message>
        <source>an object</source>
        <translation>ein Objekt</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>nichts</translation>
    </message>
    <message>
        <source>contains a control character at position %1; only plain text is allowed</source>
        <translation>enthält an Position %1 ein Steuerzeichen; nur reiner Text ist erlaubt</translation>
    </message>
    <message>
        <source>contains a bidirectional override at position %1; only plain text is allowed</source>
        <translation>enthält an Position %1 eine bidirektionale Umkehrung; nur reiner Text ist erlaubt</translation>
    </message>
    <message>
        <source>contains markup (&quot;%1&quot;); only plain text is allowed, no HTML or scripts</source>
        <translation>enthält Markup („%1“); nur reiner Text ist erlaubt, kein HTML und keine Skripte</translation>
    </message>
</context>
<context>
    <name>sandbox::KernelProbe</name>
    <message>
        <source>%1 --probe failed: %2</source>
        <translation>%1 --probe fehlgeschlagen: %2</translation>
    </message>
</context>
<context>
    <name>sandbox::KeychainJob</name>
    <message>
        <source>cannot load %1: %2</source>
        <translation>%1 kann nicht geladen werden: %2</translation>
    </message>
</context>
<context>
    <name>sandbox::Launcher</name>
    <message>
        <source>This backend cannot give a command a terminal.</source>
        <translation>Dieses Backend kann einem Befehl kein Terminal geben.</translation>
    </message>
</context>
<context>
    <name>sandbox::LauncherHost</name>
    <message>
        <source>This engine offers no filtering proxy.</source>
        <translation>Diese Engine bietet keinen Filter-Proxy.</translation>
    </message>
    <message>
        <source>This engine offers no credential injection.</source>
        <translation>Diese Engine bietet kein Einsetzen von Zugangsdaten.</translation>
    </message>
    <message>
        <source>This engine offers no SSH agent.</source>
        <translation>Diese Engine bietet keinen SSH-Agenten.</translation>
    </message>
</context>
<context>
    <name>sandbox::LayoutBuilder</name>
    <message>
        <source>%1 is nested too deeply to be split around its denied paths</source>
        <translation>%1 ist zu tief verschachtelt, um um seine verbotenen Pfade herum aufgeteilt zu werden</translation>
    </message>
    <message>
        <source>the policy needs more than %1 shared directories (its denied paths split the readable ones too finely); deny fewer paths inside readable ones, or make fewer paths readable</source>
        <translation>die Richtlinie braucht mehr als %1 geteilte Verzeichnisse (ihre verbotenen Pfade teilen die lesbaren zu fein auf); verbieten Sie weniger Pfade innerhalb lesbarer oder machen Sie weniger Pfade lesbar</translation>
    </message>
</context>
<context>
    <name>sandbox::LinuxSandboxProcess</name>
    <message>
        <source>cannot pass the configuration to sandbox-init: %1</source>
        <translation>die Konfiguration kann nicht an sandbox-init übergeben werden: %1</translation>
    </message>
    <message>
        <source>cannot run %1: %2</source>
        <translation>%1 kann nicht ausgeführt werden: %2</translation>
    </message>
    <message>
        <source>sandbox-init ended (status %1) before starting the command</source>
        <translation>sandbox-init endete (Status %1), bevor der Befehl gestartet wurde</translation>
    </message>
    <message>
        <source>The sandbox could not be set up, so the command was not run: %1</source>
        <translation>Die Sandbox konnte nicht eingerichtet werden, daher wurde der Befehl nicht ausgeführt: %1</translation>
    </message>
</context>
<context>
    <name>sandbox::LocalServer</name>
    <message>
        <source>cannot listen on the engine socket: %1</source>
        <translation>am Socket der Engine kann nicht gelauscht werden: %1</translation>
    </message>
    <message>
        <source>cannot make the engine socket owner-only</source>
        <translation>der Socket der Engine kann nicht auf den Besitzer beschränkt werden</translation>
    </message>
    <message>
        <source>connection refused: this engine belongs to uid %1 and serves no other user</source>
        <translation>Verbindung abgewiesen: Diese Engine gehört UID %1 und bedient keinen anderen Benutzer</translation>
    </message>
    <message>
        <source>connection refused: commands running in a sandbox cannot use the engine</source>
        <translation>Verbindung abgewiesen: In einer Sandbox laufende Befehle können die Engine nicht benutzen</translation>
    </message>
    <message>
        <source>a connection to the engine&apos;s socket from pid %1</source>
        <translation>eine Verbindung zum Socket der Engine von PID %1</translation>
    </message>
    <message>
        <source>engine: commands running in a sandbox cannot use the engine (%1)</source>
        <translation>Engine: Befehle, die in einer Sandbox laufen, können die Engine nicht benutzen (%1)</translation>
    </message>
</context>
<context>
    <name>sandbox::LocalSocketTransport</name>
    <message>
        <source>%1 is served by uid %2, not by us (uid %3); refusing to use it</source>
        <translation>%1 wird von UID %2 bedient, nicht von uns (UID %3); wird nicht benutzt</translation>
    </message>
    <message>
        <source>cannot read the credentials of the process serving %1</source>
        <translation>die Berechtigungsnachweise des Prozesses, der %1 bedient, können nicht gelesen werden</translation>
    </message>
</context>
<context>
    <name>sandbox::LoopbackBridge</name>
    <message>
        <source>cannot listen on 127.0.0.1 for the filtering proxy: %1</source>
        <translation>für den Filter-Proxy kann nicht auf 127.0.0.1 gelauscht werden: %1</translation>
    </message>
</context>
<context>
    <name>sandbox::OwnerLock</name>
    <message>
        <source>cannot open the engine lock file: %1</source>
        <translation>die Sperrdatei der Engine kann nicht geöffnet werden: %1</translation>
    </message>
    <message>
        <source>cannot lock the engine lock file: %1</source>
        <translation>die Sperrdatei der Engine kann nicht gesperrt werden: %1</translation>
    </message>
</context>
<context>
    <name>sandbox::PackInfo</name>
    <message>
        <source>&quot;%1&quot; is not a valid pack id; expected [a-z0-9][a-z0-9._-]{0,63}</source>
        <translation>„%1“ ist keine gültige Paket-ID; erwartet wird [a-z0-9][a-z0-9._-]{0,63}</translation>
    </message>
    <message>
        <source>too many entries (%1, at most %2)</source>
        <translation>zu viele Einträge (%1, höchstens %2)</translation>
    </message>
    <message>
        <source>expected a sentence of at most %1 characters</source>
        <translation>ein Satz mit höchstens %1 Zeichen erwartet</translation>
    </message>
    <message>
        <source>too many backends (%1, at most %2)</source>
        <translation>zu viele Backends (%1, höchstens %2)</translation>
    </message>
    <message>
        <source>%1 does not belong to pack &quot;%2&quot;</source>
        <translation>%1 gehört nicht zum Paket „%2“</translation>
    </message>
    <message>
        <source>%1 is listed twice</source>
        <translation>%1 ist doppelt aufgeführt</translation>
    </message>
</context>
<context>
    <name>sandbox::Policy</name>
    <message>
        <source>must not be empty</source>
        <translation>darf nicht leer sein</translation>
    </message>
    <message>
        <source>is too long (%1 characters, at most %2)</source>
        <translation>ist zu lang (%1 Zeichen, höchstens %2)</translation>
    </message>
    <message>
        <source>contains a NUL character</source>
        <translation>enthält ein NUL-Zeichen</translation>
    </message>
    <message>
        <source>contains a control character</source>
        <translation>enthält ein Steuerzeichen</translation>
    </message>
    <message>
        <source>must be absolute, start with ~/ or start with ${workspace}</source>
        <translation>muss absolut sein, mit ~/ beginnen oder mit ${workspace} beginnen</translation>
    </message>
    <message>
        <source>uses an unknown variable; only a leading ${workspace} is supported</source>
        <translation>verwendet eine unbekannte Variable; nur ein führendes ${workspace} wird unterstützt</translation>
    </message>
    <message>
        <source>must not contain &quot;..&quot; components</source>
        <translation>darf keine „..“-Bestandteile enthalten</translation>
    </message>
    <message>
        <source>must not contain whitespace or control characters</source>
        <translation>darf keine Leer- oder Steuerzeichen enthalten</translation>
    </message>
    <message>
        <source>must be a domain such as example.com, not a URL</source>
        <translation>muss eine Domain wie example.com sein, keine URL</translation>
    </message>
    <message>
        <source>must be a domain such as example.com, without a path</source>
        <translation>muss eine Domain wie example.com sein, ohne Pfad</translation>
    </message>
    <message>
        <source>has an invalid port; expected a number from 1 to 65535</source>
        <translation>hat einen ungültigen Port; erwartet wird eine Zahl von 1 bis 65535</translation>
    </message>
    <message>
        <source>a lone &quot;*&quot; would allow every domain; choose network mode &quot;full&quot; instead</source>
        <translation>ein einzelnes „*“ würde jede Domain erlauben; wählen Sie stattdessen den Netzwerkmodus „full“</translation>
    </message>
    <message>
        <source>&quot;*&quot; is only allowed as a leading &quot;*.&quot; label</source>
        <translation>„*“ ist nur als führendes Label „*.“ erlaubt</translation>
    </message>
    <message>
        <source>is not a valid domain name</source>
        <translation>ist kein gültiger Domainname</translation>
    </message>
    <message>
        <source>is not a valid domain name (labels are letters, digits and inner hyphens)</source>
        <translation>ist kein gültiger Domainname (Labels bestehen aus Buchstaben, Ziffern und inneren Bindestrichen)</translation>
    </message>
    <message>
        <source>unknown process confinement</source>
        <translation>unbekannte Prozessbeschränkung</translation>
    </message>
    <message>
        <source>unknown network mode</source>
        <translation>unbekannter Netzwerkmodus</translation>
    </message>
    <message>
        <source>unknown host execution mode</source>
        <translation>unbekannter Modus für die Ausführung auf dem Host</translation>
    </message>
    <message>
        <source>unknown mode &quot;%1&quot;; expected deny, ask or allow</source>
        <translation>unbekannter Modus „%1“; erwartet: deny, ask oder allow</translation>
    </message>
    <message>
        <source>unknown confinement &quot;%1&quot;; expected isolated or shared</source>
        <translation>unbekannte Beschränkung „%1“; erwartet: isolated oder shared</translation>
    </message>
    <message>
        <source>unknown network mode &quot;%1&quot;; expected none, allowlist or full</source>
        <translation>unbekannter Netzwerkmodus „%1“; erwartet: none, allowlist oder full</translation>
    </message>
    <message>
        <source>must not be inside ${workspace}: commands can write there</source>
        <translation>darf nicht in ${workspace} liegen: Befehle können dort schreiben</translation>
    </message>
    <message>
        <source>too many credentials (%1, at most %2)</source>
        <translation>zu viele Zugangsdaten (%1, höchstens %2)</translation>
    </message>
    <message>
        <source>credentials need the network mode &quot;allowlist&quot;: only then does every connection go through the engine&apos;s proxy, which puts the values in</source>
        <translation>Zugangsdaten brauchen den Netzwerkmodus &quot;allowlist&quot;: Nur dann geht jede Verbindung über den Proxy der Engine, der die Werte einsetzt</translation>
    </message>
    <message>
        <source>an upstream proxy needs the network mode &quot;allowlist&quot;: only then do connections go through the engine&apos;s proxy, which chains to it</source>
        <translation>ein vorgeschalteter Proxy benötigt den Netzwerkmodus &quot;allowlist&quot;: Nur dann laufen Verbindungen über den Proxy der Engine, der sich an ihn anschließt</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is also one of the policy&apos;s credentials, which the proxy puts into requests toward their hosts; the upstream proxy&apos;s credential must be a value of its own</source>
        <translation>&quot;%1&quot; ist auch eine der Zugangsberechtigungen der Richtlinie, die der Proxy in Anfragen an ihre Hosts einsetzt; die Zugangsdaten des vorgeschalteten Proxys müssen ein eigener Wert sein</translation>
    </message>
</context>
<context>
    <name>sandbox::PolicyCredential</name>
    <message>
        <source>must not be empty</source>
        <translation>darf nicht leer sein</translation>
    </message>
    <message>
        <source>is too long (%1 characters, at most %2)</source>
        <translation>ist zu lang (%1 Zeichen, höchstens %2)</translation>
    </message>
    <message>
        <source>must start with a letter or a digit</source>
        <translation>muss mit einem Buchstaben oder einer Ziffer beginnen</translation>
    </message>
    <message>
        <source>may only contain letters, digits, &quot;.&quot;, &quot;_&quot; and &quot;-&quot;</source>
        <translation>darf nur Buchstaben, Ziffern, „.“, „_“ und „-“ enthalten</translation>
    </message>
    <message>
        <source>must not be empty (leave the key out for no variable)</source>
        <translation>darf nicht leer sein (lassen Sie den Schlüssel weg, wenn keine Variable gewünscht ist)</translation>
    </message>
    <message>
        <source>is too long (%1 characters, at most 128)</source>
        <translation>ist zu lang (%1 Zeichen, höchstens 128)</translation>
    </message>
    <message>
        <source>must not start with a digit</source>
        <translation>darf nicht mit einer Ziffer beginnen</translation>
    </message>
    <message>
        <source>is not a variable name (letters, digits and &quot;_&quot;)</source>
        <translation>ist kein Variablenname (Buchstaben, Ziffern und „_“)</translation>
    </message>
    <message>
        <source>is a variable the sandbox sets itself</source>
        <translation>ist eine Variable, die die Sandbox selbst setzt</translation>
    </message>
    <message>
        <source>is not an HTTP header name</source>
        <translation>ist kein HTTP-Header-Name</translation>
    </message>
    <message>
        <source>the Host header names the target and is never rewritten</source>
        <translation>der Host-Header nennt das Ziel und wird nie umgeschrieben</translation>
    </message>
    <message>
        <source>a credential needs at least one host</source>
        <translation>ein Zugangsdatum braucht mindestens einen Host</translation>
    </message>
    <message>
        <source>too many entries (%1, at most %2)</source>
        <translation>zu viele Einträge (%1, höchstens %2)</translation>
    </message>
</context>
<context>
    <name>sandbox::PolicyPaths</name>
    <message>
        <source>&apos;%1&apos; %2</source>
        <translation>„%1“ %2</translation>
    </message>
    <message>
        <source>&apos;%1&apos; does not name an absolute path here (home &apos;%2&apos;, workspace &apos;%3&apos;)</source>
        <translation>„%1“ bezeichnet hier keinen absoluten Pfad (Home-Verzeichnis „%2“, Arbeitsbereich „%3“)</translation>
    </message>
</context>
<context>
    <name>sandbox::PolicySshAgent</name>
    <message>
        <source>expected an OpenSSH fingerprint such as &quot;SHA256:&quot; and 43 base64 characters, as ssh-keygen -lf KEY.pub prints it</source>
        <translation>erwartet wurde ein OpenSSH-Fingerabdruck wie &quot;SHA256:&quot; und 43 Base64-Zeichen, wie ssh-keygen -lf KEY.pub ihn ausgibt</translation>
    </message>
    <message>
        <source>must not be empty; %1</source>
        <translation>darf nicht leer sein; %1</translation>
    </message>
    <message>
        <source>is an MD5 fingerprint; %1</source>
        <translation>ist ein MD5-Fingerabdruck; %1</translation>
    </message>
    <message>
        <source>does not start with &quot;SHA256:&quot;; %1</source>
        <translation>beginnt nicht mit &quot;SHA256:&quot;; %1</translation>
    </message>
    <message>
        <source>has %1 characters after &quot;SHA256:&quot;, not %2; %3</source>
        <translation>hat %1 Zeichen nach &quot;SHA256:&quot;, nicht %2; %3</translation>
    </message>
    <message>
        <source>has a character that is not base64 after &quot;SHA256:&quot;; %1</source>
        <translation>hat nach &quot;SHA256:&quot; ein Zeichen, das kein Base64 ist; %1</translation>
    </message>
    <message>
        <source>is not the base64 of a SHA-256 hash; %1</source>
        <translation>ist nicht das Base64 eines SHA-256-Hashes; %1</translation>
    </message>
    <message>
        <source>an SSH agent needs at least one key</source>
        <translation>ein SSH-Agent braucht mindestens einen Schlüssel</translation>
    </message>
    <message>
        <source>too many keys (%1, at most %2)</source>
        <translation>zu viele Schlüssel (%1, höchstens %2)</translation>
    </message>
    <message>
        <source>is listed twice (also keys[%1])</source>
        <translation>ist doppelt aufgeführt (auch keys[%1])</translation>
    </message>
    <message>
        <source>too many entries (%1, at most %2)</source>
        <translation>zu viele Einträge (%1, höchstens %2)</translation>
    </message>
    <message>
        <source>unknown confirmation mode</source>
        <translation>unbekannter Bestätigungsmodus</translation>
    </message>
    <message>
        <source>unknown confirmation &quot;%1&quot;; expected never, first-use or always</source>
        <translation>unbekannte Bestätigung „%1“; erwartet: never, first-use oder always</translation>
    </message>
</context>
<context>
    <name>sandbox::PolicyStore</name>
    <message>
        <source>The sandbox policy cannot be read (%1), so no command runs until it is fixed: a command never runs under a policy other than yours. Repair the file, or replace it with &quot;sandboxctl policy set FILE&quot; or with the defaults by &quot;sandboxctl policy reset&quot; (or in Studio&apos;s policy panel). The file is left as it is until then.</source>
        <translation>Die Sandbox-Richtlinie kann nicht gelesen werden (%1), daher läuft kein Befehl, bis sie repariert ist: Ein Befehl läuft nie unter einer anderen Richtlinie als Ihrer. Reparieren Sie die Datei oder ersetzen Sie sie mit „sandboxctl policy set DATEI“ oder durch die Standardrichtlinie mit „sandboxctl policy reset“ (oder im Richtlinienbereich von Studio). Bis dahin bleibt die Datei unverändert.</translation>
    </message>
</context>
<context>
    <name>sandbox::ProcessInfo</name>
    <message>
        <source>missing required key</source>
        <translation>erforderlicher Schlüssel fehlt</translation>
    </message>
    <message>
        <source>expected an ISO 8601 date and time</source>
        <translation>Datum und Uhrzeit nach ISO 8601 erwartet</translation>
    </message>
    <message>
        <source>unknown state &quot;%1&quot;; expected running or exited</source>
        <translation>unbekannter Zustand „%1“; erwartet: running oder exited</translation>
    </message>
    <message>
        <source>a running process has no exit status</source>
        <translation>ein laufender Prozess hat keinen Exit-Status</translation>
    </message>
    <message>
        <source>an exited process must report its exit status</source>
        <translation>ein beendeter Prozess muss seinen Exit-Status melden</translation>
    </message>
</context>
<context>
    <name>sandbox::ProgramProcess</name>
    <message>
        <source>cannot start %1: %2</source>
        <translation>%1 kann nicht gestartet werden: %2</translation>
    </message>
</context>
<context>
    <name>sandbox::ProtocolServer</name>
    <message>
        <source>unknown method &quot;%1&quot;</source>
        <translation>unbekannte Methode „%1“</translation>
    </message>
    <message>
        <source>the first request must be &quot;hello&quot; with the protocol version</source>
        <translation>die erste Anfrage muss „hello“ mit der Protokollversion sein</translation>
    </message>
    <message>
        <source>unknown parameter of %1</source>
        <translation>unbekannter Parameter von %1</translation>
    </message>
    <message>
        <source>missing; expected an integer</source>
        <translation>fehlt; erwartet wird eine ganze Zahl</translation>
    </message>
    <message>
        <source>expected an integer, got %1</source>
        <translation>ganze Zahl erwartet, %1 erhalten</translation>
    </message>
    <message>
        <source>expected a string, got %1</source>
        <translation>Zeichenkette erwartet, %1 erhalten</translation>
    </message>
    <message>
        <source>protocol version %1 is not supported; this engine speaks version %2</source>
        <translation>Protokollversion %1 wird nicht unterstützt; diese Engine spricht Version %2</translation>
    </message>
    <message>
        <source>missing; expected an object of setting values</source>
        <translation>fehlt; erwartet wird ein Objekt mit Einstellungswerten</translation>
    </message>
    <message>
        <source>expected base64 text, got %1</source>
        <translation>Base64-Text erwartet, %1 erhalten</translation>
    </message>
    <message>
        <source>not valid base64</source>
        <translation>kein gültiges Base64</translation>
    </message>
    <message>
        <source>no running process %1 spawned by this client</source>
        <translation>kein laufender Prozess %1, der von diesem Client gestartet wurde</translation>
    </message>
    <message>
        <source>the pack&apos;s path must be absolute</source>
        <translation>der Pfad des Pakets muss absolut sein</translation>
    </message>
    <message>
        <source>expected &quot;interrupt&quot;, &quot;terminate&quot; or &quot;hangup&quot;</source>
        <translation>„interrupt“, „terminate“ oder „hangup“ erwartet</translation>
    </message>
</context>
<context>
    <name>sandbox::ProxyConnection</name>
    <message>
        <source>timed out</source>
        <translation>Zeitüberschreitung</translation>
    </message>
    <message>
        <source>malformed SOCKS5 greeting</source>
        <translation>fehlerhafte SOCKS5-Begrüßung</translation>
    </message>
    <message>
        <source>malformed SOCKS5 request</source>
        <translation>fehlerhafte SOCKS5-Anfrage</translation>
    </message>
    <message>
        <source>unsupported SOCKS5 address type</source>
        <translation>nicht unterstützter SOCKS5-Adresstyp</translation>
    </message>
    <message>
        <source>empty SOCKS5 domain name</source>
        <translation>leerer SOCKS5-Domainname</translation>
    </message>
    <message>
        <source>only SOCKS5 CONNECT is supported</source>
        <translation>nur SOCKS5 CONNECT wird unterstützt</translation>
    </message>
    <message>
        <source>request header larger than %1 bytes</source>
        <translation>Anfrage-Header größer als %1 Bytes</translation>
    </message>
    <message>
        <source>malformed request line</source>
        <translation>fehlerhafte Anfragezeile</translation>
    </message>
    <message>
        <source>malformed header line</source>
        <translation>fehlerhafte Header-Zeile</translation>
    </message>
    <message>
        <source>CONNECT needs host:port</source>
        <translation>CONNECT braucht host:port</translation>
    </message>
    <message>
        <source>request without an absolute URI or a valid Host header</source>
        <translation>Anfrage ohne absolute URI und ohne gültigen Host-Header</translation>
    </message>
    <message>
        <source>only http:// absolute URIs can be proxied without CONNECT</source>
        <translation>ohne CONNECT können nur absolute http://-URIs weitergeleitet werden</translation>
    </message>
    <message>
        <source>bad port in the request URI</source>
        <translation>ungültiger Port in der Anfrage-URI</translation>
    </message>
    <message>
        <source>invalid target &apos;%1&apos;</source>
        <translation>ungültiges Ziel „%1“</translation>
    </message>
    <message>
        <source>%1 is a %2 address</source>
        <translation>%1 ist eine %2-Adresse</translation>
    </message>
    <message>
        <source>cannot resolve %1</source>
        <translation>%1 kann nicht aufgelöst werden</translation>
    </message>
    <message>
        <source>%1 resolves only to internal addresses: %2</source>
        <translation>%1 wird nur zu internen Adressen aufgelöst: %2</translation>
    </message>
    <message>
        <source>cannot connect to %1:%2: %3</source>
        <translation>Verbindung zu %1:%2 nicht möglich: %3</translation>
    </message>
    <message>
        <source>cannot terminate TLS toward %1: %2</source>
        <translation>TLS zu %1 kann nicht terminiert werden: %2</translation>
    </message>
    <message>
        <source>the TLS server name %1 is not %2, the host this connection was opened for (domain fronting)</source>
        <translation>der TLS-Servername %1 ist nicht %2, der Host, für den diese Verbindung geöffnet wurde (Domain Fronting)</translation>
    </message>
    <message>
        <source>cannot reach %1 over TLS: %2</source>
        <translation>%1 ist über TLS nicht erreichbar: %2</translation>
    </message>
    <message>
        <source>%1 sent the value of credential &quot;%2&quot; back in its answer; the answer was withheld and the connection ended</source>
        <translation>%1 hat den Wert des Zugangsdatums „%2“ in seiner Antwort zurückgesendet; die Antwort wurde zurückgehalten und die Verbindung beendet</translation>
    </message>
    <message>
        <source>the command&apos;s TLS connection to %1 failed (does it trust the engine&apos;s certificate authority? the sandbox&apos;s certificate bundle includes it): %2</source>
        <translation>die TLS-Verbindung des Befehls zu %1 ist fehlgeschlagen (vertraut er der Zertifizierungsstelle der Engine? Das Zertifikatsbündel der Sandbox enthält sie): %2</translation>
    </message>
    <message>
        <source>the placeholder of credential &quot;%1&quot; was sent to %2 on a connection the proxy does not terminate (not one of its hosts, an excluded host, or plain HTTP); it was not replaced</source>
        <translation>der Platzhalter des Zugangsdatums „%1“ wurde an %2 gesendet, über eine Verbindung, die der Proxy nicht terminiert (keiner seiner Hosts, ein ausgenommener Host oder einfaches HTTP); er wurde nicht ersetzt</translation>
    </message>
    <message>
        <source>the upstream proxy %1 did not open the tunnel to %2 within %3 seconds</source>
        <translation>der vorgeschaltete Proxy %1 hat den Tunnel zu %2 nicht innerhalb von %3 Sekunden geöffnet</translation>
    </message>
    <message>
        <source>cannot connect to the upstream proxy %1 (for %2): %3</source>
        <translation>keine Verbindung zum vorgeschalteten Proxy %1 möglich (für %2): %3</translation>
    </message>
    <message>
        <source>the upstream proxy %1 ended the connection before it opened the tunnel to %2: %3</source>
        <translation>der vorgeschaltete Proxy %1 hat die Verbindung beendet, bevor er den Tunnel zu %2 geöffnet hat: %3</translation>
    </message>
    <message>
        <source>cannot open TLS to the upstream proxy %1: %2</source>
        <translation>TLS zum vorgeschalteten Proxy %1 kann nicht geöffnet werden: %2</translation>
    </message>
    <message>
        <source>the TLS connection to the upstream proxy %1 failed (is its authority among the system&apos;s or in network.extraCaCertificates?): %2</source>
        <translation>die TLS-Verbindung zum vorgeschalteten Proxy %1 ist fehlgeschlagen (ist seine Zertifizierungsstelle unter denen des Systems oder in network.extraCaCertificates?): %2</translation>
    </message>
    <message>
        <source>the upstream proxy %1 answered with a header larger than %2 bytes</source>
        <translation>der vorgeschaltete Proxy %1 hat mit einem Header größer als %2 Bytes geantwortet</translation>
    </message>
    <message>
        <source>the upstream proxy %1 wants credentials it was not given or did not accept (%2); name them in network.upstreamProxy.credential and store &quot;user:password&quot; with sandboxctl credential set NAME</source>
        <translation>der vorgeschaltete Proxy %1 verlangt Zugangsdaten, die er nicht erhalten oder nicht angenommen hat (%2); nennen Sie sie in network.upstreamProxy.credential und speichern Sie &quot;benutzer:passwort&quot; mit sandboxctl credential set NAME</translation>
    </message>
    <message>
        <source>the upstream proxy %1 refused the tunnel to %2 (%3)</source>
        <translation>der vorgeschaltete Proxy %1 hat den Tunnel zu %2 verweigert (%3)</translation>
    </message>
    <message>
        <source>the upstream proxy %1 could not open a tunnel to %2 (%3)</source>
        <translation>der vorgeschaltete Proxy %1 konnte keinen Tunnel zu %2 öffnen (%3)</translation>
    </message>
</context>
<context>
    <name>sandbox::ProxyServer</name>
    <message>
        <source>cannot listen on %1: %2</source>
        <translation>an %1 kann nicht gelauscht werden: %2</translation>
    </message>
</context>
<context>
    <name>sandbox::QemuDriver</name>
    <message>
        <source>the QEMU driver runs on Linux hosts</source>
        <translation>der QEMU-Treiber läuft auf Linux-Hosts</translation>
    </message>
    <message>
        <source>qemu-system-x86_64 was not found on PATH (install qemu-system-x86)</source>
        <translation>qemu-system-x86_64 wurde im PATH nicht gefunden (installieren Sie qemu-system-x86)</translation>
    </message>
    <message>
        <source>%1 is not executable</source>
        <translation>%1 ist nicht ausführbar</translation>
    </message>
    <message>
        <source>QEMU did not save the VM state (migration %1%2)</source>
        <translation>QEMU hat den Zustand der VM nicht gespeichert (Migration %1%2)</translation>
    </message>
    <message>
        <source>timed out</source>
        <translation>Zeitüberschreitung</translation>
    </message>
    <message>
        <source>QEMU did not load the saved state (status %1)</source>
        <translation>QEMU hat den gespeicherten Zustand nicht geladen (Status %1)</translation>
    </message>
    <message>
        <source>the microvm machine (KVM) cannot hot-add share devices</source>
        <translation>die microvm-Maschine (KVM) kann keine Freigabegeräte im laufenden Betrieb hinzufügen</translation>
    </message>
    <message>
        <source>the VM has no monitor to add share devices through</source>
        <translation>die VM hat keinen Monitor, über den Freigabegeräte hinzugefügt werden könnten</translation>
    </message>
    <message>
        <source>QEMU did not add the device of share s%1 (%2): %3</source>
        <translation>QEMU hat das Gerät der Freigabe s%1 (%2) nicht hinzugefügt: %3</translation>
    </message>
    <message>
        <source>%1 shares are more than the %2 a restored VM can be given</source>
        <translation>%1 Freigaben sind mehr als die %2, die eine wiederhergestellte VM erhalten kann</translation>
    </message>
</context>
<context>
    <name>sandbox::Refusal</name>
    <message>
        <source>unknown kind %1; expected one of %2</source>
        <translation>unbekannte Art %1; erwartet wird eine von %2</translation>
    </message>
</context>
<context>
    <name>sandbox::RpcMessage</name>
    <message>
        <source>missing; expected &quot;2.0&quot;</source>
        <translation>fehlt; erwartet wird „2.0“</translation>
    </message>
    <message>
        <source>expected &quot;2.0&quot;, got %1</source>
        <translation>„2.0“ erwartet, %1 erhalten</translation>
    </message>
    <message>
        <source>unknown member &quot;%1&quot; of a JSON-RPC message</source>
        <translation>unbekanntes Element „%1“ einer JSON-RPC-Nachricht</translation>
    </message>
    <message>
        <source>a request cannot also carry &quot;result&quot; or &quot;error&quot;</source>
        <translation>eine Anfrage kann nicht zusätzlich „result“ oder „error“ enthalten</translation>
    </message>
    <message>
        <source>expected a non-empty string, got %1</source>
        <translation>nicht leere Zeichenkette erwartet, %1 erhalten</translation>
    </message>
    <message>
        <source>expected an object, got %1</source>
        <translation>Objekt erwartet, %1 erhalten</translation>
    </message>
    <message>
        <source>expected an integer or a string, got %1</source>
        <translation>ganze Zahl oder Zeichenkette erwartet, %1 erhalten</translation>
    </message>
    <message>
        <source>missing; a message needs &quot;method&quot; or &quot;id&quot;</source>
        <translation>fehlt; eine Nachricht braucht „method“ oder „id“</translation>
    </message>
    <message>
        <source>expected an integer, a string or null, got %1</source>
        <translation>ganze Zahl, Zeichenkette oder null erwartet, %1 erhalten</translation>
    </message>
    <message>
        <source>a response carries exactly one of &quot;result&quot; and &quot;error&quot;</source>
        <translation>eine Antwort enthält genau eines von „result“ und „error“</translation>
    </message>
    <message>
        <source>expected an integer, got %1</source>
        <translation>ganze Zahl erwartet, %1 erhalten</translation>
    </message>
    <message>
        <source>expected a string, got %1</source>
        <translation>Zeichenkette erwartet, %1 erhalten</translation>
    </message>
</context>
<context>
    <name>sandbox::RuntimeDirectory</name>
    <message>
        <source>cannot create the runtime directory: %1</source>
        <translation>das Laufzeitverzeichnis kann nicht angelegt werden: %1</translation>
    </message>
    <message>
        <source>cannot inspect the runtime directory: %1</source>
        <translation>das Laufzeitverzeichnis kann nicht untersucht werden: %1</translation>
    </message>
    <message>
        <source>the runtime directory is a symbolic link; refusing to use it</source>
        <translation>das Laufzeitverzeichnis ist ein symbolischer Link; es wird nicht benutzt</translation>
    </message>
    <message>
        <source>the runtime directory is not a directory</source>
        <translation>das Laufzeitverzeichnis ist kein Verzeichnis</translation>
    </message>
    <message>
        <source>the runtime directory belongs to uid %1, not to us (uid %2)</source>
        <translation>das Laufzeitverzeichnis gehört UID %1, nicht uns (UID %2)</translation>
    </message>
    <message>
        <source>the runtime directory is accessible to other users (mode %1); it must be 0700</source>
        <translation>das Laufzeitverzeichnis ist für andere Benutzer zugänglich (Modus %1); es muss 0700 sein</translation>
    </message>
    <message>
        <source>the socket path is %1 bytes long, more than the %2 a unix socket&apos;s path can have; set XDG_RUNTIME_DIR, choose a shorter state directory (SANDBOX_STATE_DIR) or a shorter --socket</source>
        <translation>der Socket-Pfad ist %1 Bytes lang, mehr als die %2, die der Pfad eines Unix-Sockets haben kann; setzen Sie XDG_RUNTIME_DIR, wählen Sie ein kürzeres Zustandsverzeichnis (SANDBOX_STATE_DIR) oder einen kürzeren --socket</translation>
    </message>
</context>
<context>
    <name>sandbox::SandboxPlan</name>
    <message>
        <source>no command to run</source>
        <translation>kein auszuführender Befehl</translation>
    </message>
    <message>
        <source>an argument contains a NUL character</source>
        <translation>ein Argument enthält ein NUL-Zeichen</translation>
    </message>
    <message>
        <source>allowed domains need the filtering proxy</source>
        <translation>erlaubte Domains brauchen den Filter-Proxy</translation>
    </message>
    <message>
        <source>the workspace &apos;%1&apos; lies inside the denied path &apos;%2&apos;; the sandbox does not uncover denied paths, so nothing was run</source>
        <translation>der Arbeitsbereich „%1“ liegt im verbotenen Pfad „%2“; die Sandbox legt verbotene Pfade nicht frei, daher wurde nichts ausgeführt</translation>
    </message>
    <message>
        <source>the workspace &apos;%1&apos; lies inside &apos;%2&apos;, which the sandbox hides because it lets commands run things on the host; nothing was run</source>
        <translation>der Arbeitsbereich „%1“ liegt in „%2“, das die Sandbox verbirgt, weil es Befehle Dinge auf dem Host ausführen lässt; nichts wurde ausgeführt</translation>
    </message>
    <message>
        <source>the workspace &apos;%1&apos; is not an existing directory</source>
        <translation>der Arbeitsbereich „%1“ ist kein vorhandenes Verzeichnis</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not an absolute path (nor ~/ or ${workspace} relative)</source>
        <translation>„%1“ ist kein absoluter Pfad (auch nicht relativ zu ~/ oder ${workspace})</translation>
    </message>
    <message>
        <source>the policy needs more than %1 Landlock rules in this tier; deny fewer paths inside readable ones</source>
        <translation>die Richtlinie braucht in dieser Stufe mehr als %1 Landlock-Regeln; verbieten Sie weniger Pfade innerhalb lesbarer</translation>
    </message>
    <message>
        <source>the working directory &apos;%1&apos; is not inside the workspace &apos;%2&apos;</source>
        <translation>das Arbeitsverzeichnis &apos;%1&apos; liegt nicht im Arbeitsbereich &apos;%2&apos;</translation>
    </message>
</context>
<context>
    <name>sandbox::SeatbeltLauncher</name>
    <message>
        <source>the Seatbelt sandbox exists on macOS only</source>
        <translation>die Seatbelt-Sandbox gibt es nur unter macOS</translation>
    </message>
    <message>
        <source>%1 is missing, so commands cannot be confined</source>
        <translation>%1 fehlt, daher können Befehle nicht beschränkt werden</translation>
    </message>
    <message>
        <source>Automatic (OS sandbox)</source>
        <translation>Automatisch (Betriebssystem-Sandbox)</translation>
    </message>
    <message>
        <source>Confines each command with the macOS sandbox (Seatbelt): a profile compiled from its policy, applied by sandbox-exec.</source>
        <translation>Beschränkt jeden Befehl mit der macOS-Sandbox (Seatbelt): ein aus seiner Richtlinie kompiliertes Profil, angewendet von sandbox-exec.</translation>
    </message>
    <message>
        <source>not verified by this project&apos;s own test runs (they run on Linux; the profile&apos;s text is unit-tested there)</source>
        <translation>nicht durch die eigenen Testläufe dieses Projekts geprüft (sie laufen unter Linux; der Text des Profils wird dort per Unit-Test geprüft)</translation>
    </message>
    <message>
        <source>not enforced: %1, nothing is run</source>
        <translation>nicht durchgesetzt: %1, nichts wird ausgeführt</translation>
    </message>
    <message>
        <source>Seatbelt profile (sandbox-exec -p), default deny: reads only under the readable paths and the system&apos;s runtime locations, denied paths carved out in any letter case; writes only under the writable paths, read-only paths and the repositories&apos; control files (.git/hooks, .git/config and the rest RepositoryRules names) denied there; %1</source>
        <translation>Seatbelt-Profil (sandbox-exec -p), standardmäßig alles verboten: Lesen nur unter den lesbaren Pfaden und den Laufzeitorten des Systems, verbotene Pfade in jeder Groß-/Kleinschreibung ausgenommen; Schreiben nur unter den beschreibbaren Pfaden, wobei schreibgeschützte Pfade und die Steuerdateien der Repositorys (.git/hooks, .git/config und die übrigen, die RepositoryRules nennt) dort verboten sind; %1</translation>
    </message>
    <message>
        <source>none: every connection denied by the profile; allowlist: only the engine&apos;s filtering proxy, on one loopback port; full: allowed; %1</source>
        <translation>none: jede Verbindung durch das Profil verboten; allowlist: nur der Filter-Proxy der Engine, auf einem Loopback-Port; full: erlaubt; %1</translation>
    </message>
    <message>
        <source>the engine&apos;s filtering proxy, bridged from a loopback port the profile allows alone; proxy variables set; %1</source>
        <translation>der Filter-Proxy der Engine, überbrückt von einem Loopback-Port, den das Profil als einzigen erlaubt; Proxy-Variablen gesetzt; %1</translation>
    </message>
    <message>
        <source>deny and ask (ask is not asked on macOS: it is denied): Mach services limited to a base set (user lookups, logging, notifications, certificate trust, the temporary directory), unix socket connections, Apple events and opening applications refused by the profile; allow: all of them allowed; %1</source>
        <translation>deny und ask (ask fragt unter macOS nicht nach: Es wird verweigert): Mach-Dienste auf eine Grundmenge beschränkt (Benutzerabfragen, Protokollierung, Benachrichtigungen, Zertifikatsvertrauen, das temporäre Verzeichnis), Unix-Socket-Verbindungen, Apple Events und das Öffnen von Anwendungen durch das Profil abgewiesen; allow: alle davon erlaubt; %1</translation>
    </message>
    <message>
        <source>isolated: signals and process information only for processes in the same sandbox (profile); shared: for any process the user may reach; every child inherits the sandbox; %1</source>
        <translation>isolated: Signale und Prozessinformationen nur für Prozesse in derselben Sandbox (Profil); shared: für jeden Prozess, den der Benutzer erreichen kann; jeder Kindprozess erbt die Sandbox; %1</translation>
    </message>
    <message>
        <source>The engine&apos;s own refusals, and every connection the filtering proxy refuses (allowed domains). Not observed: what the Seatbelt profile refuses.</source>
        <translation>Die eigenen Abweisungen der Engine und jede Verbindung, die der Filter-Proxy abweist (erlaubte Domains). Nicht beobachtet: was das Seatbelt-Profil abweist.</translation>
    </message>
    <message>
        <source>no command to run</source>
        <translation>kein auszuführender Befehl</translation>
    </message>
    <message>
        <source>allowed domains need the engine&apos;s filtering proxy</source>
        <translation>erlaubte Domains brauchen den Filter-Proxy der Engine</translation>
    </message>
</context>
<context>
    <name>sandbox::SeatbeltProfile</name>
    <message>
        <source>&apos;%1&apos; is not an absolute path</source>
        <translation>„%1“ ist kein absoluter Pfad</translation>
    </message>
    <message>
        <source>allowed domains need the filtering proxy&apos;s port</source>
        <translation>erlaubte Domains brauchen den Port des filternden Proxys</translation>
    </message>
    <message>
        <source>the workspace &apos;%1&apos; lies inside the denied path &apos;%2&apos;; the sandbox does not uncover denied paths, so nothing was run</source>
        <translation>der Arbeitsbereich „%1“ liegt im gesperrten Pfad „%2“; die Sandbox gibt gesperrte Pfade nicht frei, daher wurde nichts ausgeführt</translation>
    </message>
</context>
<context>
    <name>sandbox::SecretUpdate</name>
    <message>
        <source>not a valid field id; expected [A-Za-z][A-Za-z0-9_.-]{0,63}</source>
        <translation>keine gültige Feld-ID; erwartet wird [A-Za-z][A-Za-z0-9_.-]{0,63}</translation>
    </message>
    <message>
        <source>unknown action &quot;%1&quot;; expected keep, replace or remove</source>
        <translation>unbekannte Aktion „%1“; erwartet: keep, replace oder remove</translation>
    </message>
    <message>
        <source>only a replace action carries a value</source>
        <translation>nur eine Ersetzen-Aktion enthält einen Wert</translation>
    </message>
</context>
<context>
    <name>sandbox::ServerSession</name>
    <message>
        <source>the result exceeds the protocol&apos;s message limit</source>
        <translation>das Ergebnis überschreitet die Nachrichtengrenze des Protokolls</translation>
    </message>
</context>
<context>
    <name>sandbox::SettingsDocument</name>
    <message>
        <source>version %1 is not supported (this build reads version %2)</source>
        <translation>Version %1 wird nicht unterstützt (dieser Build liest Version %2)</translation>
    </message>
    <message>
        <source>expected an object, got %1</source>
        <translation>Objekt erwartet, %1 erhalten</translation>
    </message>
    <message>
        <source>%1: the legacy %2 settings were dropped: %3 already has its own</source>
        <translation>%1: Die alten Einstellungen von %2 wurden verworfen: %3 hat bereits eigene</translation>
    </message>
    <message>
        <source>%1: the legacy %2 settings now live in %3&apos;s settings (%4)</source>
        <translation>%1: Die alten Einstellungen von %2 liegen jetzt in den Einstellungen von %3 (%4)</translation>
    </message>
</context>
<context>
    <name>sandbox::SettingsValues</name>
    <message>
        <source>unknown setting; &quot;%1&quot; has no such field</source>
        <translation>unbekannte Einstellung; „%1“ hat kein solches Feld</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is required</source>
        <translation>„%1“ ist erforderlich</translation>
    </message>
    <message>
        <source>1 setting is invalid: %1</source>
        <translation>1 Einstellung ist ungültig: %1</translation>
    </message>
    <message>
        <source>%1 settings are invalid</source>
        <translation>%1 Einstellungen sind ungültig</translation>
    </message>
    <message>
        <source>too many settings (%1, at most %2)</source>
        <translation>zu viele Einstellungen (%1, höchstens %2)</translation>
    </message>
    <message>
        <source>not a valid field id; expected [A-Za-z][A-Za-z0-9_.-]{0,63}</source>
        <translation>keine gültige Feld-ID; erwartet wird [A-Za-z][A-Za-z0-9_.-]{0,63}</translation>
    </message>
    <message>
        <source>expected a string, number or boolean, got %1</source>
        <translation>Zeichenkette, Zahl oder Wahrheitswert erwartet, %1 erhalten</translation>
    </message>
    <message>
        <source>is too long (at most %1 characters)</source>
        <translation>ist zu lang (höchstens %1 Zeichen)</translation>
    </message>
</context>
<context>
    <name>sandbox::SettingsView</name>
    <message>
        <source>too many secrets (%1, at most %2)</source>
        <translation>zu viele Geheimnisse (%1, höchstens %2)</translation>
    </message>
    <message>
        <source>not a valid field id; expected [A-Za-z][A-Za-z0-9_.-]{0,63}</source>
        <translation>keine gültige Feld-ID; erwartet wird [A-Za-z][A-Za-z0-9_.-]{0,63}</translation>
    </message>
    <message>
        <source>read APIs only say whether a secret is set</source>
        <translation>Lese-APIs sagen nur, ob ein Geheimnis gesetzt ist</translation>
    </message>
</context>
<context>
    <name>sandbox::SpawnRequest</name>
    <message>
        <source>missing required key</source>
        <translation>erforderlicher Schlüssel fehlt</translation>
    </message>
    <message>
        <source>too many variables (%1, at most %2)</source>
        <translation>zu viele Variablen (%1, höchstens %2)</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid variable name</source>
        <translation>„%1“ ist kein gültiger Variablenname</translation>
    </message>
    <message>
        <source>contains a NUL character</source>
        <translation>enthält ein NUL-Zeichen</translation>
    </message>
    <message>
        <source>%1 is not inside the workspace %2</source>
        <translation>%1 liegt nicht im Arbeitsbereich %2</translation>
    </message>
</context>
<context>
    <name>sandbox::SshAgentFilter</name>
    <message>
        <source>%1 (the connection was closed)</source>
        <translation>%1 (die Verbindung wurde geschlossen)</translation>
    </message>
    <message>
        <source>use the extension &quot;%1&quot;</source>
        <translation>die Erweiterung &quot;%1&quot; verwenden</translation>
    </message>
    <message>
        <source>a malformed extension request</source>
        <translation>eine fehlerhafte Erweiterungsanfrage</translation>
    </message>
    <message>
        <source>a malformed signature request</source>
        <translation>eine fehlerhafte Signaturanfrage</translation>
    </message>
    <message>
        <source>sign with a key the policy does not list</source>
        <translation>mit einem Schlüssel signieren, den die Richtlinie nicht aufführt</translation>
    </message>
    <message>
        <source>sign: the policy asks for a confirmation and nobody can give it</source>
        <translation>signieren: Die Richtlinie verlangt eine Bestätigung, und niemand kann sie geben</translation>
    </message>
    <message>
        <source>sign: the user refused the signature</source>
        <translation>signieren: Der Benutzer hat die Signatur abgewiesen</translation>
    </message>
    <message>
        <source>this SSH agent filter already listens at %1</source>
        <translation>dieser SSH-Agent-Filter lauscht bereits an %1</translation>
    </message>
    <message>
        <source>the SSH agent filter&apos;s socket path must be absolute</source>
        <translation>der Socket-Pfad des SSH-Agent-Filters muss absolut sein</translation>
    </message>
    <message>
        <source>is the user&apos;s own SSH agent socket; the filter needs a socket of its own</source>
        <translation>ist der Socket des eigenen SSH-Agenten des Benutzers; der Filter braucht einen eigenen Socket</translation>
    </message>
    <message>
        <source>cannot listen for SSH agent clients: %1</source>
        <translation>für SSH-Agent-Clients kann nicht gelauscht werden: %1</translation>
    </message>
    <message>
        <source>more than %1 connections at once (the connection was closed)</source>
        <translation>mehr als %1 Verbindungen gleichzeitig (die Verbindung wurde geschlossen)</translation>
    </message>
</context>
<context>
    <name>sandbox::SshAgentService</name>
    <message>
        <source>cannot use the engine&apos;s runtime directory for the SSH agent: %1</source>
        <translation>das Laufzeitverzeichnis der Engine kann für den SSH-Agenten nicht verwendet werden: %1</translation>
    </message>
    <message>
        <source>an SSH agent already listens here</source>
        <translation>hier lauscht bereits ein SSH-Agent</translation>
    </message>
    <message>
        <source>The engine has no SSH agent to filter: SSH_AUTH_SOCK is not set where it runs. Start the engine from a session with an SSH agent. Nothing was run.</source>
        <translation>Die Engine hat keinen SSH-Agenten zum Filtern: SSH_AUTH_SOCK ist dort, wo sie läuft, nicht gesetzt. Starten Sie die Engine aus einer Sitzung mit SSH-Agenten. Es wurde nichts ausgeführt.</translation>
    </message>
    <message>
        <source>Allow an SSH signature?</source>
        <translation>Eine SSH-Signatur erlauben?</translation>
    </message>
    <message>
        <source>The command &apos;%1&apos; asks your SSH agent to sign with the key %2 (%3%4). Allow this signature?</source>
        <translation>Der Befehl &apos;%1&apos; bittet Ihren SSH-Agenten, mit dem Schlüssel %2 (%3%4) zu signieren. Diese Signatur erlauben?</translation>
    </message>
    <message>
        <source>SSH agent</source>
        <translation>SSH-Agent</translation>
    </message>
    <message>
        <source>SSH agent, key %1</source>
        <translation>SSH-Agent, Schlüssel %1</translation>
    </message>
    <message>
        <source>ssh agent: %1</source>
        <translation>SSH-Agent: %1</translation>
    </message>
</context>
<context>
    <name>sandbox::SshClientSetup</name>
    <message>
        <source>cannot write the sandbox&apos;s SSH configuration: %1</source>
        <translation>die SSH-Konfiguration der Sandbox kann nicht geschrieben werden: %1</translation>
    </message>
    <message>
        <source>the path &apos;%1&apos; holds a quote or a percent sign, which an SSH configuration cannot name; nothing was run</source>
        <translation>der Pfad &apos;%1&apos; enthält ein Anführungszeichen oder ein Prozentzeichen, das eine SSH-Konfiguration nicht nennen kann; es wurde nichts ausgeführt</translation>
    </message>
    <message>
        <source>cannot create the folder of the sandbox&apos;s SSH configuration</source>
        <translation>der Ordner der SSH-Konfiguration der Sandbox kann nicht angelegt werden</translation>
    </message>
    <message>
        <source>cannot read your known SSH hosts (%1); the sandbox checks host keys against a copy of them</source>
        <translation>Ihre bekannten SSH-Hosts können nicht gelesen werden (%1); die Sandbox prüft Host-Schlüssel gegen eine Kopie davon</translation>
    </message>
</context>
<context>
    <name>sandbox::TarArchive</name>
    <message>
        <source>archive</source>
        <translation>Archiv</translation>
    </message>
    <message>
        <source>a member&apos;s size at offset %1 is not a number</source>
        <translation>die Größe eines Eintrags an Position %1 ist keine Zahl</translation>
    </message>
    <message>
        <source>the member at offset %1 claims %2 bytes, more than the %3 bytes left in the archive: the archive ends inside it</source>
        <translation>der Eintrag an Position %1 gibt %2 Bytes an, mehr als die %3 Bytes, die im Archiv noch übrig sind: das Archiv endet innerhalb des Eintrags</translation>
    </message>
    <message>
        <source>%1 (outside the workspace)</source>
        <translation>%1 (außerhalb des Arbeitsbereichs)</translation>
    </message>
    <message>
        <source>%1 (not a regular file)</source>
        <translation>%1 (keine reguläre Datei)</translation>
    </message>
</context>
<context>
    <name>sandbox::TlsStream</name>
    <message>
        <source>cannot make a TLS context: %1</source>
        <translation>ein TLS-Kontext kann nicht angelegt werden: %1</translation>
    </message>
    <message>
        <source>cannot load the host&apos;s certificate: %1</source>
        <translation>das Zertifikat des Hosts kann nicht geladen werden: %1</translation>
    </message>
    <message>
        <source>cannot start TLS: %1</source>
        <translation>TLS kann nicht gestartet werden: %1</translation>
    </message>
    <message>
        <source>cannot load the system&apos;s certificate authorities: %1</source>
        <translation>die Zertifizierungsstellen des Systems können nicht geladen werden: %1</translation>
    </message>
    <message>
        <source>cannot load the certificate authorities in %1: %2</source>
        <translation>die Zertifizierungsstellen in %1 können nicht geladen werden: %2</translation>
    </message>
    <message>
        <source>no TLS context</source>
        <translation>kein TLS-Kontext</translation>
    </message>
    <message>
        <source>cannot check the certificate of %1: %2</source>
        <translation>das Zertifikat von %1 kann nicht geprüft werden: %2</translation>
    </message>
    <message>
        <source>TLS input not consumed</source>
        <translation>TLS-Eingabe nicht verbraucht</translation>
    </message>
    <message>
        <source>the certificate is not trusted: %1</source>
        <translation>dem Zertifikat wird nicht vertraut: %1</translation>
    </message>
    <message>
        <source>TLS handshake failed: %1</source>
        <translation>TLS-Handshake fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>TLS failed: %1</source>
        <translation>TLS fehlgeschlagen: %1</translation>
    </message>
</context>
<context>
    <name>sandbox::UnifiedKernelImage</name>
    <message>
        <source>cannot use the EFI stub: %1</source>
        <translation>der EFI-Stub ist nicht verwendbar: %1</translation>
    </message>
    <message>
        <source>it is not a PE image</source>
        <translation>er ist kein PE-Abbild</translation>
    </message>
    <message>
        <source>it has no PE header</source>
        <translation>er hat keinen PE-Header</translation>
    </message>
    <message>
        <source>it is not an x86-64 image</source>
        <translation>er ist kein x86-64-Abbild</translation>
    </message>
    <message>
        <source>it is not a PE32+ image</source>
        <translation>er ist kein PE32+-Abbild</translation>
    </message>
    <message>
        <source>its section alignment is not a divisor of the page size</source>
        <translation>seine Abschnittsausrichtung ist kein Teiler der Seitengröße</translation>
    </message>
    <message>
        <source>its section table is cut short</source>
        <translation>seine Abschnittstabelle ist abgeschnitten</translation>
    </message>
    <message>
        <source>it already has a %1 section</source>
        <translation>er hat bereits einen Abschnitt %1</translation>
    </message>
    <message>
        <source>its headers have no room for three more sections</source>
        <translation>seine Header haben keinen Platz für drei weitere Abschnitte</translation>
    </message>
    <message>
        <source>the kernel and initramfs are too large for one EFI image</source>
        <translation>Kernel und Initramfs sind zu groß für ein EFI-Abbild</translation>
    </message>
</context>
<context>
    <name>sandbox::UpstreamProxy</name>
    <message>
        <source>this engine has no secret storage to read the upstream proxy&apos;s credential from</source>
        <translation>diese Engine hat keinen Geheimnisspeicher, aus dem die Zugangsdaten des vorgeschalteten Proxys gelesen werden könnten</translation>
    </message>
    <message>
        <source>the upstream proxy&apos;s credential &quot;%1&quot; has no value; store it (&quot;user:password&quot;) with sandboxctl credential set %1</source>
        <translation>die Zugangsdaten &quot;%1&quot; des vorgeschalteten Proxys haben keinen Wert; speichern Sie sie (&quot;benutzer:passwort&quot;) mit sandboxctl credential set %1</translation>
    </message>
</context>
<context>
    <name>sandbox::UserNetwork</name>
    <message>
        <source>the policy names %1, but a VM never reaches the host&apos;s loopback; under network &quot;full&quot; name a non-loopback address of the host instead; nothing was run</source>
        <translation>die Richtlinie nennt %1, aber eine VM erreicht nie das Loopback des Hosts; nennen Sie unter Netzwerk „vollständig“ stattdessen eine Nicht-Loopback-Adresse des Hosts; nichts wurde ausgeführt</translation>
    </message>
    <message>
        <source>the policy names %1, which lies in the VM&apos;s own user-mode networks (%2/%3 and %4/%5); nothing was run</source>
        <translation>die Richtlinie nennt %1, das in den eigenen User-Mode-Netzen der VM liegt (%2/%3 und %4/%5); nichts wurde ausgeführt</translation>
    </message>
    <message>
        <source>the policy names %1, an internal address with a port; under network &quot;full&quot; the VM opens a named internal address on every port or not at all, so name the address without a port; nothing was run</source>
        <translation>die Richtlinie nennt %1, eine interne Adresse mit Port; unter Netzwerk „vollständig“ öffnet die VM eine genannte interne Adresse auf jedem Port oder gar nicht, nennen Sie die Adresse also ohne Port; nichts wurde ausgeführt</translation>
    </message>
    <message>
        <source>user-mode networking isolated from the host needs Linux network namespaces</source>
        <translation>ein vom Host isoliertes User-Mode-Netz braucht Linux-Netzwerk-Namespaces</translation>
    </message>
    <message>
        <source>slirp4netns was not found on PATH (install slirp4netns)</source>
        <translation>slirp4netns wurde im PATH nicht gefunden (installieren Sie slirp4netns)</translation>
    </message>
    <message>
        <source>user namespaces are turned off (user.max_user_namespaces is 0)</source>
        <translation>User-Namespaces sind abgeschaltet (user.max_user_namespaces ist 0)</translation>
    </message>
    <message>
        <source>unprivileged user namespaces are turned off (kernel.unprivileged_userns_clone is 0)</source>
        <translation>unprivilegierte User-Namespaces sind abgeschaltet (kernel.unprivileged_userns_clone ist 0)</translation>
    </message>
    <message>
        <source>AppArmor refuses unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns is 1)</source>
        <translation>AppArmor verweigert unprivilegierte User-Namespaces (kernel.apparmor_restrict_unprivileged_userns ist 1)</translation>
    </message>
    <message>
        <source>cannot create the pipes for slirp4netns: %1</source>
        <translation>die Pipes für slirp4netns können nicht angelegt werden: %1</translation>
    </message>
    <message>
        <source>slirp4netns did not bring up the VM&apos;s network within %1 s%2</source>
        <translation>slirp4netns hat das Netz der VM nicht innerhalb von %1 s eingerichtet%2</translation>
    </message>
</context>
<context>
    <name>sandbox::VfkitDriver</name>
    <message>
        <source>vfkit drives Apple&apos;s Virtualization framework and runs on macOS only</source>
        <translation>vfkit steuert Apples Virtualization-Framework und läuft nur unter macOS</translation>
    </message>
    <message>
        <source>vfkit was not found on PATH (brew install vfkit)</source>
        <translation>vfkit wurde im PATH nicht gefunden (brew install vfkit)</translation>
    </message>
    <message>
        <source>vfkit cannot be given a kernel or initramfs path with a comma, or a command line with a double quote</source>
        <translation>vfkit kann kein Kernel- oder Initramfs-Pfad mit Komma und keine Befehlszeile mit doppeltem Anführungszeichen übergeben werden</translation>
    </message>
    <message>
        <source>vfkit cannot share %1: its path contains a comma</source>
        <translation>vfkit kann %1 nicht teilen: Sein Pfad enthält ein Komma</translation>
    </message>
    <message>
        <source>vfkit cannot save a running VM or start one from a saved state; every VM cold boots</source>
        <translation>vfkit kann eine laufende VM nicht speichern und keine aus einem gespeicherten Zustand starten; jede VM startet kalt</translation>
    </message>
    <message>
        <source>the vfkit driver does not carry the guest&apos;s network forwarder yet, so network allowlist is not enforced with it; nothing was run</source>
        <translation>der vfkit-Treiber führt den Netzwerk-Forwarder des Gasts noch nicht, daher wird der Netzwerkmodus Allowlist damit nicht durchgesetzt; nichts wurde ausgeführt</translation>
    </message>
</context>
<context>
    <name>sandbox::VhdxImage</name>
    <message>
        <source>the boot disk is %1 bytes, not a whole number of %2-byte blocks</source>
        <translation>das Startlaufwerk hat %1 Bytes, keine ganze Zahl von %2-Byte-Blöcken</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>%1 kann nicht geschrieben werden: %2</translation>
    </message>
</context>
<context>
    <name>sandbox::VmDriver</name>
    <message>
        <source>%1 cannot keep the host and internal addresses unreachable from a VM&apos;s user-mode network</source>
        <translation>%1 kann Host- und interne Adressen vor dem User-Mode-Netz einer VM nicht unerreichbar halten</translation>
    </message>
</context>
<context>
    <name>sandbox::VmMachine</name>
    <message>
        <source>%1 could not be started: %2</source>
        <translation>%1 konnte nicht gestartet werden: %2</translation>
    </message>
    <message>
        <source>the VM stopped (status %1)%2%3</source>
        <translation>die VM wurde beendet (Status %1)%2%3</translation>
    </message>
    <message>
        <source>the VM running this command stopped</source>
        <translation>die VM, die diesen Befehl ausführt, wurde beendet</translation>
    </message>
    <message>
        <source>the guest did not report its exec agent ready within %1 s; guest console: %2</source>
        <translation>der Gast hat seinen Exec-Agenten nicht innerhalb von %1 s als bereit gemeldet; Gastkonsole: %2</translation>
    </message>
    <message>
        <source>the exec agent&apos;s channel closed</source>
        <translation>der Kanal des Exec-Agenten wurde geschlossen</translation>
    </message>
    <message>
        <source>the exec agent sent a malformed frame</source>
        <translation>der Exec-Agent hat einen fehlerhaften Frame gesendet</translation>
    </message>
    <message>
        <source>the restored guest&apos;s agent did not complete the handshake (%1)</source>
        <translation>der Agent des wiederhergestellten Gastes hat den Verbindungsaufbau nicht abgeschlossen (%1)</translation>
    </message>
    <message>
        <source>exit status %1%2</source>
        <translation>Exit-Status %1%2</translation>
    </message>
    <message>
        <source>the restored VM stopped (status %1)%2</source>
        <translation>die wiederhergestellte VM hat angehalten (Status %1)%2</translation>
    </message>
    <message>
        <source>the restored guest did not answer within %1 s</source>
        <translation>der wiederhergestellte Gast hat nicht innerhalb von %1 s geantwortet</translation>
    </message>
    <message>
        <source>the restored guest did not mount its shares: %1</source>
        <translation>der wiederhergestellte Gast hat seine Freigaben nicht eingehängt: %1</translation>
    </message>
    <message>
        <source>unexpected answer</source>
        <translation>unerwartete Antwort</translation>
    </message>
    <message>
        <source>the exec agent sent a malformed SSH agent frame</source>
        <translation>der Ausführungsagent hat einen fehlerhaften SSH-Agenten-Rahmen gesendet</translation>
    </message>
    <message>
        <source>the guest stopped reading its channel (%1 MiB waiting to be sent); the VM is ended</source>
        <translation>der Gast liest seinen Kanal nicht mehr (%1 MiB warten darauf, gesendet zu werden); die VM wird beendet</translation>
    </message>
</context>
<context>
    <name>sandbox::VmProcess</name>
    <message>
        <source>sandbox: refused the system call %1 (made by %2)
</source>
        <translation>sandbox: Systemaufruf %1 abgewiesen (von %2)
</translation>
    </message>
    <message>
        <source>sandbox: %1</source>
        <translation>sandbox: %1</translation>
    </message>
    <message>
        <source>%1 (connected by %2, process %3 of the guest)</source>
        <translation>%1 (verbunden von %2, Prozess %3 des Gastes)</translation>
    </message>
    <message>
        <source>unix sockets: a command&apos;s SSH agent serves only the processes of that command&apos;s own session (refused by the guest&apos;s exec agent)</source>
        <translation>Unix-Sockets: der SSH-Agent eines Befehls bedient nur die Prozesse der eigenen Sitzung dieses Befehls (abgelehnt vom Ausführungsagenten des Gastes)</translation>
    </message>
</context>
<context>
    <name>sandbox::WindowsLauncher</name>
    <message>
        <source>sandbox-init.exe confines commands on Windows only</source>
        <translation>sandbox-init.exe beschränkt Befehle nur unter Windows</translation>
    </message>
    <message>
        <source>the helper sandbox-init.exe was not found next to %1 (set SANDBOX_INIT_PATH or reinstall)</source>
        <translation>das Hilfsprogramm sandbox-init.exe wurde nicht neben %1 gefunden (setzen Sie SANDBOX_INIT_PATH oder installieren Sie neu)</translation>
    </message>
    <message>
        <source>Automatic (OS sandbox)</source>
        <translation>Automatisch (Betriebssystem-Sandbox)</translation>
    </message>
    <message>
        <source>Confines each command on Windows with an AppContainer of its own, access rules on its paths, firewall rules, a restricted token and a job object (sandbox-init.exe).</source>
        <translation>Beschränkt jeden Befehl unter Windows mit einem eigenen AppContainer, Zugriffsregeln auf seinen Pfaden, Firewall-Regeln, einem eingeschränkten Token und einem Job-Objekt (sandbox-init.exe).</translation>
    </message>
    <message>
        <source>not verified by this project&apos;s own test runs (they run on Linux: the plan is unit-tested there, and sandbox-init.exe&apos;s job object, stdio, exit status and timeout are tested under Wine, which has no AppContainers)</source>
        <translation>nicht durch die eigenen Testläufe dieses Projekts geprüft (sie laufen unter Linux: Der Plan wird dort per Unit-Test geprüft, und Job-Objekt, Standard-E/A, Exit-Status und Zeitlimit von sandbox-init.exe werden unter Wine getestet, das keine AppContainer hat)</translation>
    </message>
    <message>
        <source>not enforced: %1, nothing is run</source>
        <translation>nicht durchgesetzt: %1, nichts wird ausgeführt</translation>
    </message>
    <message>
        <source>an AppContainer of the command&apos;s own reaches only what its access rules grant: read on the readable paths, write on the writable ones, deny rules on denied and read-only paths and on the repositories&apos; control files (the .git entry itself cannot be removed or renamed), added when the command starts and removed when it ends; rules are set on paths that exist when it starts, so a denied or read-only path created later inside a writable one is not covered; %1</source>
        <translation>ein eigener AppContainer des Befehls erreicht nur, was seine Zugriffsregeln gewähren: Lesen auf den lesbaren Pfaden, Schreiben auf den beschreibbaren, Verbotsregeln auf verbotenen und schreibgeschützten Pfaden und auf den Steuerdateien der Repositorys (der .git-Eintrag selbst kann nicht entfernt oder umbenannt werden), hinzugefügt beim Start des Befehls und entfernt an seinem Ende; Regeln werden auf Pfade gesetzt, die beim Start existieren, daher ist ein verbotener oder schreibgeschützter Pfad, der später in einem beschreibbaren angelegt wird, nicht abgedeckt; %1</translation>
    </message>
    <message>
        <source>none: an AppContainer without network capabilities, and a firewall rule blocking everything for it; allowlist: not offered on Windows yet (the filtering proxy serves unix sockets only), nothing is run; full: the internetClient and privateNetworkClientServer capabilities; %1</source>
        <translation>none: ein AppContainer ohne Netzwerk-Capabilities und eine Firewall-Regel, die für ihn alles blockiert; allowlist: unter Windows noch nicht angeboten (der Filter-Proxy bedient nur Unix-Sockets), nichts wird ausgeführt; full: die Capabilities internetClient und privateNetworkClientServer; %1</translation>
    </message>
    <message>
        <source>deny and ask (ask is not asked on Windows: it is denied): the job object&apos;s UI restrictions (no other windows, clipboard, global atoms or system settings), an AppContainer reaching no named pipe or service that does not admit AppContainers; allow: no UI restrictions; %1</source>
        <translation>deny und ask (ask fragt unter Windows nicht nach: Es wird verweigert): die UI-Einschränkungen des Job-Objekts (keine anderen Fenster, keine Zwischenablage, keine globalen Atome oder Systemeinstellungen), ein AppContainer, der keine Named Pipe und keinen Dienst erreicht, die keine AppContainer zulassen; allow: keine UI-Einschränkungen; %1</translation>
    </message>
    <message>
        <source>a restricted token (every privilege but traversal removed, Administrators deny-only, low integrity), a job object that allows no breakaway, ends every process of the command when sandbox-init.exe ends or is killed, and limits their number; %1</source>
        <translation>ein eingeschränktes Token (alle Privilegien außer dem Traversieren entfernt, Administrators nur zum Verweigern (deny-only), niedrige Integrität), ein Job-Objekt, das kein Herauslösen (Breakaway) erlaubt, jeden Prozess des Befehls beendet, wenn sandbox-init.exe endet oder zwangsweise beendet wird, und ihre Anzahl begrenzt; %1</translation>
    </message>
    <message>
        <source>The engine&apos;s own refusals. Not observed: what the AppContainer, the access rules and the firewall refuse.</source>
        <translation>Die eigenen Abweisungen der Engine. Nicht beobachtet: was der AppContainer, die Zugriffsregeln und die Firewall abweisen.</translation>
    </message>
    <message>
        <source>no command to run</source>
        <translation>kein auszuführender Befehl</translation>
    </message>
    <message>
        <source>allowed domains are not offered on Windows yet (the filtering proxy serves unix sockets only); nothing was run</source>
        <translation>erlaubte Domains werden unter Windows noch nicht angeboten (der Filter-Proxy bedient nur Unix-Sockets); nichts wurde ausgeführt</translation>
    </message>
    <message>
        <source>cannot make a folder for the command&apos;s plan in %1</source>
        <translation>in %1 kann kein Ordner für den Plan des Befehls angelegt werden</translation>
    </message>
    <message>
        <source>cannot write the command&apos;s plan to %1</source>
        <translation>der Plan des Befehls kann nicht nach %1 geschrieben werden</translation>
    </message>
</context>
<context>
    <name>sandbox::WindowsPlanBuilder</name>
    <message>
        <source>&apos;%1&apos; is not an absolute Windows path (C:/...)</source>
        <translation>„%1“ ist kein absoluter Windows-Pfad (C:/...)</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a drive (C:)</source>
        <translation>„%1“ ist kein Laufwerk (C:)</translation>
    </message>
    <message>
        <source>allowed domains need the filtering proxy&apos;s port</source>
        <translation>erlaubte Domains brauchen den Port des filternden Proxys</translation>
    </message>
    <message>
        <source>%1 is not a process limit from 1 to %2</source>
        <translation>%1 ist keine Prozessgrenze von 1 bis %2</translation>
    </message>
    <message>
        <source>the workspace &apos;%1&apos; lies inside the denied path &apos;%2&apos;; the sandbox does not uncover denied paths, so nothing was run</source>
        <translation>der Arbeitsbereich „%1“ liegt im gesperrten Pfad „%2“; die Sandbox gibt gesperrte Pfade nicht frei, daher wurde nichts ausgeführt</translation>
    </message>
</context>
<context>
    <name>sandbox::WorkspaceSync</name>
    <message>
        <source>tar could not be started on this computer: %1</source>
        <translation>tar konnte auf diesem Computer nicht gestartet werden: %1</translation>
    </message>
    <message>
        <source>no temporary file for the workspace&apos;s archive: %1</source>
        <translation>keine temporäre Datei für das Archiv des Arbeitsbereichs: %1</translation>
    </message>
    <message>
        <source>tar could not archive the workspace %1: %2</source>
        <translation>tar konnte den Arbeitsbereich %1 nicht archivieren: %2</translation>
    </message>
    <message>
        <source>the workspace %1 is larger than %2 MB, too large to upload for every command</source>
        <translation>der Arbeitsbereich %1 ist größer als %2 MB, zu groß, um ihn für jeden Befehl hochzuladen</translation>
    </message>
    <message>
        <source>sandbox: workspace upload to %1: %2 of %3 MB
</source>
        <translation>sandbox: Hochladen des Arbeitsbereichs, Ziel %1: %2 von %3 MB
</translation>
    </message>
    <message>
        <source>no temporary file for the archive: %1</source>
        <translation>keine temporäre Datei für das Archiv: %1</translation>
    </message>
    <message>
        <source>was ended by signal %1</source>
        <translation>wurde durch Signal %1 beendet</translation>
    </message>
    <message>
        <source>exited with status %1</source>
        <translation>endete mit Status %1</translation>
    </message>
    <message>
        <source>sandbox: the command %1, but nothing of the workspace was brought back from %2: %3; this computer&apos;s workspace is as it was before the command
</source>
        <translation>sandbox: der Befehl %1, aber nichts vom Arbeitsbereich wurde zurückgeholt (Quelle: %2): %3; der Arbeitsbereich auf diesem Computer ist so, wie er vor dem Befehl war
</translation>
    </message>
    <message>
        <source>its copy is larger than %1 MB</source>
        <translation>seine Kopie ist größer als %1 MB</translation>
    </message>
    <message>
        <source>the download did not end properly (%1)</source>
        <translation>der Download endete nicht ordnungsgemäß (%1)</translation>
    </message>
    <message>
        <source>its archive cannot be read here: %1</source>
        <translation>sein Archiv kann hier nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>its copy could not be read (%1)</source>
        <translation>seine Kopie konnte nicht gelesen werden (%1)</translation>
    </message>
    <message>
        <source>the archive of its copy was cut off before its end</source>
        <translation>das Archiv seiner Kopie wurde vor seinem Ende abgeschnitten</translation>
    </message>
    <message>
        <source>sandbox: %1 changed on this computer while the command ran; the sandbox&apos;s version is %1.sandbox-conflict
</source>
        <translation>sandbox: %1 wurde auf diesem Computer geändert, während der Befehl lief; die Version der Sandbox ist %1.sandbox-conflict
</translation>
    </message>
    <message>
        <source>sandbox: not brought back: %1
</source>
        <translation>sandbox: nicht zurückgeholt: %1
</translation>
    </message>
</context>
<context>
    <name>sandbox::power::DockerArchiveTransfer</name>
    <message>
        <source>the runtime refused the workspace&apos;s archive at %1: %2</source>
        <translation>die Laufzeitumgebung hat das Archiv des Arbeitsbereichs unter %1 abgewiesen: %2</translation>
    </message>
</context>
<context>
    <name>sandbox::power::DockerProcess</name>
    <message>
        <source>the runtime refused the command: %1</source>
        <translation>die Laufzeitumgebung hat den Befehl abgewiesen: %1</translation>
    </message>
    <message>
        <source>cannot create the command&apos;s status channel: %1</source>
        <translation>der Statuskanal des Befehls kann nicht angelegt werden: %1</translation>
    </message>
    <message>
        <source>This engine offers no SSH agent.</source>
        <translation>Diese Engine bietet keinen SSH-Agenten.</translation>
    </message>
</context>
<context>
    <name>sandbox::power::E2bProcess</name>
    <message>
        <source>envd sent a stream that is not Connect&apos;s framing</source>
        <translation>envd hat einen Datenstrom gesendet, der nicht dem Connect-Framing entspricht</translation>
    </message>
    <message>
        <source>envd refused the command (%1): %2</source>
        <translation>envd hat den Befehl abgewiesen (%1): %2</translation>
    </message>
    <message>
        <source>envd ended the stream without the command&apos;s end</source>
        <translation>envd hat den Datenstrom ohne das Ende des Befehls beendet</translation>
    </message>
    <message>
        <source>the sandbox stopped answering: %1</source>
        <translation>die Sandbox antwortet nicht mehr: %1</translation>
    </message>
    <message>
        <source>envd answered HTTP status %1%2</source>
        <translation>envd antwortete mit HTTP-Status %1%2</translation>
    </message>
    <message>
        <source>the stream ended without the command&apos;s end</source>
        <translation>der Datenstrom endete ohne das Ende des Befehls</translation>
    </message>
    <message>
        <source>The E2B sandbox did not start the command: %1</source>
        <translation>Die E2B-Sandbox hat den Befehl nicht gestartet: %1</translation>
    </message>
    <message>
        <source>sandbox: the E2B command was lost: %1
</source>
        <translation>sandbox: der E2B-Befehl ging verloren: %1
</translation>
    </message>
    <message>
        <source>The E2B sandbox did not start the command: %1 (%2)</source>
        <translation>Die E2B-Sandbox hat den Befehl nicht gestartet: %1 (%2)</translation>
    </message>
    <message>
        <source>sandbox: the E2B sandbox did not end the command within %1 s of the kill; it is no longer waited for here, and may go on running in the sandbox until the sandbox ends
</source>
        <translation>sandbox: die E2B-Sandbox hat den Befehl nicht innerhalb von %1 s nach dem Abbruch beendet; er wird hier nicht mehr abgewartet und kann in der Sandbox weiterlaufen, bis die Sandbox endet
</translation>
    </message>
</context>
<context>
    <name>sandbox::power::E2bSettings</name>
    <message>
        <source>The %1 &quot;%2&quot; is not a URL with a host.</source>
        <translation>%1 „%2“ ist keine URL mit Host.</translation>
    </message>
    <message>
        <source>The %1 &quot;%2&quot; must be an https:// URL.</source>
        <translation>%1 „%2“ muss eine https://-URL sein.</translation>
    </message>
    <message>
        <source>The %1 &quot;%2&quot; uses plain HTTP to a host that is not a loopback address; use https://.</source>
        <translation>%1 „%2“ verwendet reines HTTP zu einem Host, der keine Loopback-Adresse ist; verwenden Sie https://.</translation>
    </message>
    <message>
        <source>The domain &quot;%1&quot; is not a host name.</source>
        <translation>Die Domain „%1“ ist kein Hostname.</translation>
    </message>
    <message>
        <source>API URL</source>
        <translation>Die API-URL</translation>
    </message>
    <message>
        <source>sandbox URL</source>
        <translation>Die Sandbox-URL</translation>
    </message>
</context>
<context>
    <name>sandbox::power::E2bWorkspaceProcess</name>
    <message>
        <source>sandbox: the workspace was not brought back from the E2B sandbox: %1
</source>
        <translation>sandbox: der Arbeitsbereich wurde nicht aus der E2B-Sandbox zurückgeholt: %1
</translation>
    </message>
    <message>
        <source>the workspace could not be unpacked in the sandbox: %1</source>
        <translation>der Arbeitsbereich konnte in der Sandbox nicht entpackt werden: %1</translation>
    </message>
    <message>
        <source>sandbox: some workspace files could not be placed in the E2B sandbox:
%1
</source>
        <translation>sandbox: einige Dateien des Arbeitsbereichs konnten nicht in die E2B-Sandbox gelegt werden:
%1
</translation>
    </message>
    <message>
        <source>the sandbox did not name its copy of the workspace</source>
        <translation>die Sandbox hat ihre Kopie des Arbeitsbereichs nicht benannt</translation>
    </message>
    <message>
        <source>sandbox: the workspace was not brought back from the E2B sandbox
</source>
        <translation>sandbox: der Arbeitsbereich wurde nicht aus der E2B-Sandbox zurückgeholt
</translation>
    </message>
    <message>
        <source>the workspace&apos;s archive cannot be read: %1</source>
        <translation>das Archiv des Arbeitsbereichs kann nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>the workspace could not be sent to the E2B sandbox: %1</source>
        <translation>der Arbeitsbereich konnte nicht an die E2B-Sandbox gesendet werden: %1</translation>
    </message>
    <message>
        <source>HTTP status %1 %2</source>
        <translation>HTTP-Status %1 %2</translation>
    </message>
    <message>
        <source>HTTP status %1</source>
        <translation>HTTP-Status %1</translation>
    </message>
    <message>
        <source>the E2B sandbox</source>
        <translation>die E2B-Sandbox</translation>
    </message>
    <message>
        <source>the archive was too large</source>
        <translation>das Archiv war zu groß</translation>
    </message>
</context>
<context>
    <name>sandbox::power::RemoteDockerProcess</name>
    <message>
        <source>the engine&apos;s helper (sandbox-init) cannot be read: %1</source>
        <translation>das Hilfsprogramm der Engine (sandbox-init) kann nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>the helper&apos;s archive cannot be written: %1</source>
        <translation>das Archiv des Hilfsprogramms kann nicht geschrieben werden: %1</translation>
    </message>
    <message>
        <source>the runtime refused to create the container: %1</source>
        <translation>die Laufzeitumgebung hat das Anlegen des Containers verweigert: %1</translation>
    </message>
    <message>
        <source>the engine&apos;s helper could not be put into the container: %1</source>
        <translation>das Hilfsprogramm der Engine konnte nicht in den Container gelegt werden: %1</translation>
    </message>
    <message>
        <source>the runtime could not start the container: %1</source>
        <translation>die Laufzeitumgebung konnte den Container nicht starten: %1</translation>
    </message>
    <message>
        <source>the runtime refused the command: %1</source>
        <translation>die Laufzeitumgebung hat den Befehl abgewiesen: %1</translation>
    </message>
    <message>
        <source>sandbox: the command ended with the connection to %1: %2. Nothing of the workspace was brought back. Activate the backend again.
</source>
        <translation>sandbox: der Befehl endete zusammen mit der Verbindung (Gegenstelle: %1): %2. Nichts vom Arbeitsbereich wurde zurückgeholt. Aktivieren Sie das Backend erneut.
</translation>
    </message>
    <message>
        <source>sandbox: the workspace was not brought back from %1
</source>
        <translation>sandbox: der Arbeitsbereich wurde nicht zurückgeholt (Quelle: %1)
</translation>
    </message>
    <message>
        <source>no filtering proxy is available to this backend</source>
        <translation>diesem Backend steht kein Filter-Proxy zur Verfügung</translation>
    </message>
    <message>
        <source>the container&apos;s proxy bridge did not start: %1</source>
        <translation>die Proxy-Brücke des Containers ist nicht gestartet: %1</translation>
    </message>
    <message>
        <source>exit status %1</source>
        <translation>Exit-Status %1</translation>
    </message>
    <message>
        <source>sandbox: the filtering proxy&apos;s forward to %1 ended while the command ran; its connections through the proxy failed from then on
</source>
        <translation>sandbox: die Weiterleitung des Filter-Proxys zu %1 endete, während der Befehl lief; seine Verbindungen über den Proxy schlugen von da an fehl
</translation>
    </message>
</context>
<context>
    <name>sandbox::sshagent</name>
    <message>
        <source>list the keys</source>
        <translation>die Schlüssel auflisten</translation>
    </message>
    <message>
        <source>sign</source>
        <translation>signieren</translation>
    </message>
    <message>
        <source>add a key</source>
        <translation>einen Schlüssel hinzufügen</translation>
    </message>
    <message>
        <source>remove a key</source>
        <translation>einen Schlüssel entfernen</translation>
    </message>
    <message>
        <source>remove every key</source>
        <translation>alle Schlüssel entfernen</translation>
    </message>
    <message>
        <source>add a smartcard&apos;s keys</source>
        <translation>die Schlüssel einer Smartcard hinzufügen</translation>
    </message>
    <message>
        <source>remove a smartcard&apos;s keys</source>
        <translation>die Schlüssel einer Smartcard entfernen</translation>
    </message>
    <message>
        <source>lock the agent</source>
        <translation>den Agenten sperren</translation>
    </message>
    <message>
        <source>unlock the agent</source>
        <translation>den Agenten entsperren</translation>
    </message>
    <message>
        <source>use an extension</source>
        <translation>eine Erweiterung verwenden</translation>
    </message>
    <message>
        <source>message type %1</source>
        <translation>Nachrichtentyp %1</translation>
    </message>
</context>
<context>
    <name>sandbox::sshagent::FrameReader</name>
    <message>
        <source>an empty message (no message type)</source>
        <translation>eine leere Nachricht (kein Nachrichtentyp)</translation>
    </message>
    <message>
        <source>a message of %1 bytes, more than the %2 an SSH agent message may have</source>
        <translation>eine Nachricht von %1 Bytes, mehr als die %2, die eine SSH-Agent-Nachricht haben darf</translation>
    </message>
</context>
</TS>
