"""Every option curl and wget have, for the option model (ADR 0021; issue 12, point 1).

An option missing here makes the command ``opaque``. Which of them write, run a program or
load options from elsewhere is decided in ``downloads``; every other option listed here only
changes what is sent or printed.
"""

from __future__ import annotations

from orchestrator_boundary.bash.options import spec

# curl 7.88 to 8.x. Long options with a value only as the next word (curl does not split
# `--opt=value`; the model still reads it as the option, which only errs towards a write).
CURL = spec(
    "#0123456aBfgGhiIjJklLMnNOpqRsSvVZ",
    "AbcCdDeEFHKmoPQrtTuUwxXyYz",
    """abstract-unix-socket= alt-svc= anyauth append aws-sigv4= basic ca-native cacert=
    capath= cert= cert-status cert-type= ciphers= compressed compressed-ssh config=
    connect-timeout= connect-to= continue-at= cookie= cookie-jar= create-dirs create-file-mode=
    crlf crlfile= curves= data= data-ascii= data-binary= data-raw= data-urlencode= delegation=
    digest disable disable-eprt disable-epsv disallow-username-in-url dns-interface=
    dns-ipv4-addr= dns-ipv6-addr= dns-servers= doh-cert-status doh-insecure doh-url= dump-header=
    ech= egd-file= engine= etag-compare= etag-save= expect100-timeout= fail fail-early
    fail-with-body false-start form= form-escape form-string= ftp-account=
    ftp-alternative-to-user= ftp-create-dirs ftp-method= ftp-pasv ftp-port= ftp-pret
    ftp-skip-pasv-ip ftp-ssl ftp-ssl-ccc ftp-ssl-ccc-mode= ftp-ssl-control ftp-ssl-reqd get
    globoff happy-eyeballs-timeout-ms= haproxy-clientip= haproxy-protocol head header= help
    hostpubmd5= hostpubsha256= hsts= http0.9 http1.0 http1.1 http2 http2-prior-knowledge http3
    http3-only ignore-content-length include insecure interface= ip-tos= ipfs-gateway= ipv4
    ipv6 json= junk-session-cookies keepalive-cnt= keepalive-time= key= key-type= krb=
    libcurl= limit-rate= list-only local-port= location location-trusted login-options=
    mail-auth= mail-from= mail-rcpt= mail-rcpt-allowfails manual max-filesize= max-redirs=
    max-time= metalink mptcp negotiate netrc netrc-file= netrc-optional next no-alpn no-buffer
    no-clobber no-keepalive no-npn no-progress-meter no-sessionid noproxy= ntlm ntlm-wb
    oauth2-bearer= output= output-dir= parallel parallel-immediate parallel-max= pass=
    path-as-is pinnedpubkey= post301 post302 post303 preproxy= progress-bar proto=
    proto-default= proto-redir= proxy= proxy-anyauth proxy-basic proxy-ca-native
    proxy-cacert= proxy-capath= proxy-cert= proxy-cert-type= proxy-ciphers= proxy-crlfile=
    proxy-digest proxy-header= proxy-http2 proxy-insecure proxy-key= proxy-key-type=
    proxy-negotiate proxy-ntlm proxy-pass= proxy-pinnedpubkey= proxy-service-name=
    proxy-ssl-allow-beast proxy-ssl-auto-client-cert proxy-tls13-ciphers= proxy-tlsauthtype=
    proxy-tlspassword= proxy-tlsuser= proxy-tlsv1 proxy-user= proxy1.0= proxytunnel pubkey=
    quote= random-file= range= rate= raw referer= remote-header-name remote-name
    remote-name-all remote-time remove-on-error request= request-target= resolve= retry=
    retry-all-errors retry-connrefused retry-delay= retry-max-time= sasl-authzid= sasl-ir
    service-name= show-error show-headers silent skip-existing socks4= socks4a= socks5=
    socks5-basic socks5-gssapi socks5-gssapi-nec socks5-gssapi-service= socks5-hostname=
    speed-limit= speed-time= ssl ssl-allow-beast ssl-auto-client-cert ssl-no-revoke ssl-reqd
    ssl-revoke-best-effort ssl-sessions= sslv2 sslv3 stderr= styled-output
    suppress-connect-headers tcp-fastopen tcp-nodelay telnet-option= tftp-blksize=
    tftp-no-options time-cond= tls-earlydata tls-max= tls13-ciphers= tlsauthtype= tlspassword=
    tlsuser= tlsv1 tlsv1.0 tlsv1.1 tlsv1.2 tlsv1.3 tr-encoding trace= trace-ascii= trace-config=
    trace-ids trace-time unix-socket= upload-file= url= url-query= use-ascii user= user-agent=
    variable= verbose version vlan-priority= write-out= xattr""",
)
# options whose value is a file curl writes ("-" is stdout; `%` is stderr in curl 8)
CURL_WRITES = (
    "-o",
    "--output",
    "-D",
    "--dump-header",
    "-c",
    "--cookie-jar",
    "--trace",
    "--trace-ascii",
    "--stderr",
    "--libcurl",
    "--etag-save",
    "--hsts",  # a cache curl reads and writes back
    "--alt-svc",
    "--ssl-sessions",
)
CURL_CONFIG = ("-K", "--config")  # more options from a file: not in the text

# GNU wget 1.21 (getopt_long: abbreviations are taken). `-nv`, `-nc`, ... are `-n` + a letter.
WGET = spec(
    "46bcdEFhHkKLmNpqrSvVx",
    "aABeiIlnoOPQRtTUwXD",
    """accept= accept-regex= adjust-extension append-output= ask-password auth-no-challenge
    background backup-converted backups= base= bind-address= body-data= body-file= ca-certificate=
    ca-directory= cache= certificate= certificate-type= check-certificate[=] ciphers=
    compression= config= connect-timeout= content-disposition content-on-error continue
    convert-file-only convert-links crl-file= cut-dirs= debug default-page= delete-after
    directory-prefix= dns-timeout= domains= egd-file= exclude-directories= exclude-domains=
    execute= follow-ftp follow-tags= force-directories force-html ftp-password= ftp-user= header=
    help hsts-file= html-extension http-password= http-user= https-only ignore-case
    ignore-length ignore-tags= include-directories= inet4-only inet6-only input-file= iri
    keep-session-cookies level= limit-rate= load-cookies= local-encoding= max-redirect= method=
    mirror no-cache no-check-certificate no-clobber no-config no-cookies no-directories
    no-dns-cache no-glob no-host-directories no-hsts no-http-keep-alive no-if-modified-since
    no-iri no-netrc no-parent no-passive-ftp no-proxy no-remove-listing no-use-server-timestamps
    no-verbose output-document= output-file= page-requisites password= pinnedpubkey=
    post-data= post-file= prefer-family= preserve-permissions private-key= private-key-type=
    progress= protocol-directories proxy-password= proxy-user= quiet quota= random-file=
    random-wait read-timeout= referer= reject= reject-regex= rejected-log= relative
    remote-encoding= report-speed= restrict-file-names= retr-symlinks retry-connrefused
    retry-on-host-error retry-on-http-error= save-cookies= save-headers secure-protocol=
    server-response show-progress span-hosts spider start-pos= timeout= timestamping
    trust-server-names tries= unlink use-askpass= user= user-agent= verbose version wait=
    waitretry= warc-cdx warc-dedup= warc-file= warc-header= warc-max-size= warc-tempdir= xattr""",
)
WGET_LOGS = ("-o", "--output-file", "-a", "--append-output")
WGET_WRITES = ("--save-cookies", "--warc-file", "--rejected-log", "--hsts-file")
# options that run a program or read options the text does not show
WGET_OPAQUE = ("-e", "--execute", "--config", "--use-askpass")
WGET_N_LETTERS = frozenset("vcdHp")  # -nv -nc -nd -nH -np
