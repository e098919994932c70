"""ip and ss: network listings, with the forms that change the system or write a file.

`ip netns exec NAME CMD` runs CMD, `ip netns add` creates /run/netns/NAME, `ip -batch F` runs
the commands of F, `ip link set` changes the system: only the listing forms are read-only.
`ss -D FILE` (`--diag`) writes FILE; `ss -K` kills sockets.
"""

from __future__ import annotations

from orchestrator_boundary.bash.model import EffectKind
from orchestrator_boundary.bash.options import parse, spec
from orchestrator_boundary.bash.outcome import Env, Outcome, checked, opaque, read_only, writes
from orchestrator_boundary.bash.readonly_data import names
from orchestrator_boundary.bash.words import Word

_IP_FLAGS = names(
    """-4 -6 -0 -s -stats -statistics -d -details -o -oneline -br -brief -c -color -j -json -p
    -pretty -h -human -human-readable -r -resolve -a -all -t -timestamp -ts -tshort -iec"""
)
_IP_VALUED = frozenset({"-f", "-family", "-n", "-netns", "-l", "-loops", "-rc", "-rcvbuf"})
_IP_OBJECTS = names(
    """address addr a link l route r ro neigh neighbour neighbor n rule ru maddress maddr
    mroute tunnel tuntap netconf ntable addrlabel token nexthop nh vrf stats"""
)
_IP_READING = frozenset({"show", "list", "ls", "lst", "get", "help"})
_NETNS_READING = frozenset({"list", "ls", "identify", "list-id", "pids", "help"})


def ip(prog: str, args: list[Word], env: Env) -> Outcome:
    i = 0
    while i < len(args) and (args[i].value or "").startswith("-"):
        value = (args[i].value or "").partition("=")[0]
        if value in _IP_VALUED:
            i += 2
        elif value in _IP_FLAGS:
            i += 1
        else:
            return opaque(prog, f"ip {args[i].text}: not known to only list")
    words = [a.value for a in args[i:]]
    if not words or None in words:
        return opaque(prog, "ip: no object, or a word that is not a literal")
    obj, verb = words[0], words[1] if len(words) > 1 else None
    if obj == "netns" and (verb is None or verb in _NETNS_READING):
        return read_only(prog, "ip netns listing")
    if obj in _IP_OBJECTS and (verb is None or verb in _IP_READING):
        return read_only(prog, f"ip {obj} listing")
    return opaque(prog, f"ip {' '.join(w or '' for w in words[:2])}: may change the system")


_SS = spec(
    "hVHOnraloemipsEZzb460tSudwxMT",
    "NfAFD",
    """help version no-header oneline numeric resolve all listening options extended memory
    processes threads info tos cgroup tipcinfo summary events context contexts net= bpf ipv4
    ipv6 packet tcp sctp udp dccp raw unix xdp mptcp vsock tipc inet-sockopt family= query=
    socket= diag= filter= bpf-maps bpf-map-id=""",
)


def ss(prog: str, args: list[Word], env: Env) -> Outcome:
    parsed = parse(args, _SS)
    if any(name in ("-K", "--kill") for name in parsed.unknown):
        return opaque(prog, "ss -K kills sockets")
    dumps = [v for v in parsed.values("-D", "--diag") if v is not None]
    fx = env.fx_many(EffectKind.WRITE, dumps, "ss --diag file")
    return checked(prog, parsed.unknown, writes(prog, fx, "ss lists sockets"))


HANDLERS = {"ip": ip, "ss": ss}
