; Included by electron-builder's NSIS installer (electron-builder.json, nsis.include).
; Registers Callbar for tel: and callto: links at install time, in HKLM for a per-machine
; install (SHCTX follows the install mode), started as `Callbar.exe -- "<link>"` like the app's
; own registration (src-main/core/desktop/link-handler.ts): the link is never read as a switch.
; Uninstalling removes a scheme's key only while it still points at this Callbar.

!macro CallbarRegisterScheme SCHEME
  WriteRegStr SHCTX "Software\Classes\${SCHEME}" "" "URL:${SCHEME} link"
  WriteRegStr SHCTX "Software\Classes\${SCHEME}" "URL Protocol" ""
  WriteRegStr SHCTX "Software\Classes\${SCHEME}\DefaultIcon" "" "$INSTDIR\${APP_EXECUTABLE_FILENAME},0"
  WriteRegStr SHCTX "Software\Classes\${SCHEME}\shell\open\command" "" '"$INSTDIR\${APP_EXECUTABLE_FILENAME}" -- "%1"'
!macroend

!macro CallbarUnregisterScheme SCHEME
  ReadRegStr $0 SHCTX "Software\Classes\${SCHEME}\shell\open\command" ""
  StrCmp $0 '"$INSTDIR\${APP_EXECUTABLE_FILENAME}" -- "%1"' 0 +2
    DeleteRegKey SHCTX "Software\Classes\${SCHEME}"
!macroend

!macro customInstall
  !insertmacro CallbarRegisterScheme "tel"
  !insertmacro CallbarRegisterScheme "callto"
!macroend

!macro customUnInstall
  !insertmacro CallbarUnregisterScheme "tel"
  !insertmacro CallbarUnregisterScheme "callto"
!macroend
