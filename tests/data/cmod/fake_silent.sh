#!/bin/sh
# A stand-in C model server that starts and never answers (tests/harness/test_cmod_client.cpp).
exec sleep 600
