#!/bin/sh
# A stand-in C model server (tests/harness/test_cmod_client.cpp): greets as the protocol says,
# then stops as NVIDIA's model does on a failed assertion.
printf '\103\101\114\104\001\000\000\000'
echo "dlacosim-cmod test: NV_NVDLA_csc.cpp:2382: void f(): Assertion \`weight_width_ext == 3' failed." >&2
sleep 0.2
kill -ABRT $$
