#!/bin/sh
# A stand-in C model server of another protocol version (tests/harness/test_cmod_client.cpp).
printf '\103\101\114\104\011\000\000\000'
exec sleep 600
