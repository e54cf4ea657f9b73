"""Upcasters: an event stored in an old shape loads in the current one."""

from __future__ import annotations

from typing import Any

import pytest

from service.store.upcasting import Upcasters, canonical_json

# A made-up event whose shape changed twice:
#   v1 {"seat": 0, "points": 25}
#   v2 adds "undercut" (old hands had none)
#   v3 renames "points" to "score"
upcasters = Upcasters()


@upcasters.register("HandScored", from_version=1)
def _add_undercut(payload: dict[str, Any]) -> dict[str, Any]:
    return {**payload, "undercut": False}


@upcasters.register("HandScored", from_version=2)
def _rename_points(payload: dict[str, Any]) -> dict[str, Any]:
    rest = {k: v for k, v in payload.items() if k != "points"}
    return {**rest, "score": payload["points"]}


def test_an_old_event_is_upcast_step_by_step_to_the_current_shape() -> None:
    stored = b'{"points":25,"seat":0}'

    assert upcasters.decode("HandScored", 1, stored) == {"seat": 0, "undercut": False, "score": 25}
    assert upcasters.decode("HandScored", 2, b'{"points":9,"seat":1,"undercut":true}') == {
        "seat": 1,
        "undercut": True,
        "score": 9,
    }


def test_a_current_event_loads_unchanged() -> None:
    current = {"seat": 1, "undercut": True, "score": 40}

    assert upcasters.current_version("HandScored") == 3
    assert upcasters.decode("HandScored", 3, canonical_json(current)) == current


def test_a_type_without_upcasters_is_at_version_one_and_loads_as_stored() -> None:
    assert upcasters.current_version("Drew") == 1
    assert upcasters.decode("Drew", 1, b'{"seat":0}') == {"seat": 0}


def test_a_missing_step_is_reported_rather_than_loading_a_stale_shape() -> None:
    gappy = Upcasters()
    gappy.register("E", from_version=2)(lambda payload: payload)

    with pytest.raises(LookupError, match="no upcaster from version 1"):
        gappy.decode("E", 1, b"{}")


def test_one_step_per_type_and_version() -> None:
    with pytest.raises(ValueError, match="already has an upcaster"):
        upcasters.register("HandScored", from_version=1)(lambda payload: payload)


def test_canonical_json_sorts_keys_and_has_no_spaces() -> None:
    assert canonical_json({"b": [1, 2], "a": "Td", "c": {"z": 1, "y": None}}) == (
        b'{"a":"Td","b":[1,2],"c":{"y":null,"z":1}}'
    )
