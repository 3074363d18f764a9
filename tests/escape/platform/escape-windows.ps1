# The escape suite's cases that apply to Windows, through `sandboxctl run` under
# builtin:auto with the default policy: each tries to break a promise of the policy and
# passes only when it is kept; two controls show that ordinary work still runs.
# Exits 1 when any case fails.
# Usage: pwsh tests/escape/platform/escape-windows.ps1 -Sandboxctl PATH\TO\sandboxctl.exe
param([Parameter(Mandatory = $true)][string]$Sandboxctl)
$ErrorActionPreference = 'Continue'
$ctl = (Resolve-Path $Sandboxctl).Path
$script:failures = 0
function Pass($name) { Write-Output "ok   - $name" }
function Fail($name, $why) { Write-Output "FAIL - ${name}: $why"; $script:failures++ }

$work = Join-Path $env:RUNNER_TEMP "sandbox-escape-$PID"
$config = Join-Path $env:RUNNER_TEMP "sandbox-escape-config-$PID"
New-Item -ItemType Directory -Force -Path $work, $config | Out-Null
$env:SANDBOX_CONFIG_DIR = Join-Path $config 'config'
$env:SANDBOX_STATE_DIR = Join-Path $config 'state'
$sshDir = Join-Path $env:USERPROFILE '.ssh'
New-Item -ItemType Directory -Force -Path $sshDir | Out-Null
$probe = Join-Path $sshDir 'sandbox-escape-probe'
$secret = "escape-secret-$(Get-Random)"
Set-Content -NoNewline -Path $probe -Value $secret
$outside = Join-Path $env:USERPROFILE "sandbox-escape-outside-$PID"
Set-Location $work
git init -q .

try {
    & $ctl activate builtin:auto
    if ($LASTEXITCODE -ne 0) { Fail 'builtin:auto activates' "exit $LASTEXITCODE"; exit 1 }
    & $ctl describe builtin:auto

    $out = & $ctl run -- cmd /c echo hello 2>&1 | Out-String
    if ($out.Trim() -eq 'hello') { Pass 'a command runs and its output comes back' } else { Fail 'a command runs' $out }

    & $ctl run -- cmd /c "echo inside> inside.txt"
    if ((Test-Path inside.txt) -and ((Get-Content inside.txt) -eq 'inside')) { Pass 'the workspace is writable' }
    else { Fail 'the workspace is writable' 'inside.txt was not written' }

    $out = & $ctl run -- cmd /c type $probe 2>&1 | Out-String
    if ($out.Contains($secret)) { Fail 'a denied file stays unreadable' 'its content came back' }
    else { Pass 'a denied file stays unreadable' }

    & $ctl run -- cmd /c "echo x> `"$outside`"" 2>&1 | Out-Null
    if (Test-Path $outside) { Fail 'nothing is written outside the writable paths' "$outside exists" }
    else { Pass 'nothing is written outside the writable paths' }

    & $ctl run -- cmd /c "echo x> .git\hooks\pre-commit" 2>&1 | Out-Null
    if (Test-Path .git\hooks\pre-commit) { Fail 'no git hook can be planted' '.git\hooks\pre-commit exists' }
    else { Pass 'no git hook can be planted' }

    & $ctl run -- cmd /c "rd /s /q .git" 2>&1 | Out-Null
    if (Test-Path .git\config) { Pass 'the repository cannot be removed' }
    else { Fail 'the repository cannot be removed' '.git is gone' }

    & $ctl run -- curl.exe -sS -m 10 -o NUL https://example.com 2>&1 | Out-Null
    if ($LASTEXITCODE -eq 0) { Fail 'network none: no connection leaves' 'curl reached https://example.com' }
    else { Pass 'network none: no connection leaves' }

    # Every access rule sandbox-init.exe added is gone afterwards.
    $left = (Get-Acl $work).Access | Where-Object { $_.IdentityReference -match '^S-1-15-2-' }
    if ($left) { Fail 'access rules are undone' ($left | Out-String) } else { Pass 'access rules are undone' }
}
finally {
    Set-Location $env:RUNNER_TEMP
    Remove-Item -Force -ErrorAction SilentlyContinue $probe, $outside
    Remove-Item -Recurse -Force -ErrorAction SilentlyContinue $work, $config
}
Write-Output "$script:failures case(s) failed"
if ($script:failures -ne 0) { exit 1 }
