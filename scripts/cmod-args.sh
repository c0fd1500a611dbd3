# Sourced by scripts/build.sh and scripts/test.sh: the CMake arguments that build NVIDIA's C model
# as dlacosim's third device (docs/CMOD.md) when an nvdla/hw checkout is at hand: DLA_NVDLA_HW,
# else ../shared/nvdla-hw beside the checkout (where tests and CI have it). Sets `cmod_args`.
# DLA_CMOD_CONFIGS picks the configurations (default nv_small and nv_full; "all" for every one).
cmod_hw=${DLA_NVDLA_HW:-}
if [ -z "$cmod_hw" ] && [ -d ../shared/nvdla-hw ]; then cmod_hw=$(cd ../shared/nvdla-hw && pwd); fi
cmod_args=()
if [ -n "$cmod_hw" ]; then
  cmod_configs=${DLA_CMOD_CONFIGS:-nv_small;nv_full}
  [ "$cmod_configs" = all ] && cmod_configs=""
  cmod_args=(-DDLA_NVDLA_HW="$cmod_hw" -DDLA_CMOD_CONFIGS="$cmod_configs")
fi
