#!/bin/sh
# A stand-in C model server that ends before it greets (tests/harness/test_cmod_client.cpp).
echo "dlacosim-cmod test: cannot elaborate" >&2
exit 3
