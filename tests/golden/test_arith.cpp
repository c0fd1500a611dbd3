// arith.hpp against hand-worked tables. Every expected value is written literally (the worked
// division is in the comment); none is computed with the code under test.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include "golden/arith.hpp"

namespace {

using dla::golden::Wide;
using UWide = unsigned __int128;

// Powers of two as Wide literals; 2^127 does not fit, so the extremes are spelled out.
constexpr Wide p2(int e) { return Wide{1} << e; }
constexpr Wide kWideMin = static_cast<Wide>(UWide{1} << 127);
constexpr Wide kWideMax = static_cast<Wide>((UWide{1} << 127) - 1);

// Catch2 cannot print __int128; compare hex strings so a failure shows both values.
std::string hex(Wide v) {
  auto u = static_cast<UWide>(v);
  std::string s;
  do {
    s.insert(s.begin(), "0123456789abcdef"[static_cast<int>(u & 0xf)]);
    u >>= 4;
  } while (u != 0);
  return "0x" + s;
}

int64_t i64(Wide v) { return static_cast<int64_t>(v); }

}  // namespace

using namespace dla::golden;

TEST_CASE("sat clamps to the signed N-bit range", "[arith]") {
  // 8 bits: [-128, 127]
  CHECK(sat(0, 8) == 0);
  CHECK(sat(126, 8) == 126);
  CHECK(sat(127, 8) == 127);
  CHECK(sat(128, 8) == 127);
  CHECK(sat(1000, 8) == 127);
  CHECK(sat(-127, 8) == -127);
  CHECK(sat(-128, 8) == -128);
  CHECK(sat(-129, 8) == -128);
  CHECK(sat(-1000, 8) == -128);
  // 17 bits: [-65536, 65535]
  CHECK(sat(65534, 17) == 65534);
  CHECK(sat(65535, 17) == 65535);
  CHECK(sat(65536, 17) == 65535);
  CHECK(sat(-65536, 17) == -65536);
  CHECK(sat(-65537, 17) == -65536);
  // 32 bits: [-2147483648, 2147483647]
  CHECK(sat(2147483647, 32) == 2147483647);
  CHECK(sat(2147483648LL, 32) == 2147483647);
  CHECK(sat(-2147483648LL, 32) == -2147483648LL);
  CHECK(sat(-2147483649LL, 32) == -2147483648LL);
  // 64 bits: only Wide inputs can exceed it.
  CHECK(sat(p2(63) - 1, 64) == INT64_MAX);
  CHECK(sat(p2(63), 64) == INT64_MAX);
  CHECK(sat(-p2(63), 64) == INT64_MIN);
  CHECK(sat(-p2(63) - 1, 64) == INT64_MIN);
  CHECK(sat(p2(120), 64) == INT64_MAX);
  CHECK(sat(kWideMin, 64) == INT64_MIN);
  CHECK(sat(kWideMax, 64) == INT64_MAX);
  // 1 bit: [-1, 0]
  CHECK(sat(1, 1) == 0);
  CHECK(sat(0, 1) == 0);
  CHECK(sat(-1, 1) == -1);
  CHECK(sat(-2, 1) == -1);
}

TEST_CASE("saturates reports exactly when sat clamps", "[arith]") {
  CHECK_FALSE(saturates(127, 8));
  CHECK(saturates(128, 8));
  CHECK_FALSE(saturates(-128, 8));
  CHECK(saturates(-129, 8));
  CHECK_FALSE(saturates(65535, 17));
  CHECK(saturates(65536, 17));
  CHECK_FALSE(saturates(-65536, 17));
  CHECK(saturates(-65537, 17));
  CHECK_FALSE(saturates(2147483647, 32));
  CHECK(saturates(2147483648LL, 32));
  CHECK_FALSE(saturates(-2147483648LL, 32));
  CHECK(saturates(-2147483649LL, 32));
  CHECK_FALSE(saturates(-p2(63), 64));
  CHECK(saturates(p2(63), 64));
  CHECK(saturates(kWideMin, 64));
}

TEST_CASE("sign_extend reinterprets the low bits as two's complement", "[arith]") {
  CHECK(sign_extend(0x7F, 8) == 127);
  CHECK(sign_extend(0x80, 8) == -128);
  CHECK(sign_extend(0xFF, 8) == -1);
  CHECK(sign_extend(0x100, 8) == 0);    // bit 8 is above the field
  CHECK(sign_extend(0x1FE, 8) == -2);   // 0xFE
  CHECK(sign_extend(0x7FFF, 16) == 32767);
  CHECK(sign_extend(0x8000, 16) == -32768);
  CHECK(sign_extend(0xFFFF, 16) == -1);
  CHECK(sign_extend(0x12345, 16) == 0x2345);
  CHECK(sign_extend(0xFFFF, 17) == 65535);
  CHECK(sign_extend(0x10000, 17) == -65536);
  CHECK(sign_extend(0x1FFFF, 17) == -1);
  CHECK(sign_extend(0x7FFFFFFF, 32) == 2147483647);
  CHECK(sign_extend(0x80000000, 32) == -2147483648LL);
  CHECK(sign_extend(0xFFFFFFFF, 32) == -1);
  CHECK(sign_extend(0xFFFFFFFF00000005ULL, 32) == 5);
  CHECK(sign_extend(0x8000000000000000ULL, 64) == INT64_MIN);
  CHECK(sign_extend(0xFFFFFFFFFFFFFFFFULL, 64) == -1);
  CHECK(sign_extend(0x7FFFFFFFFFFFFFFFULL, 64) == INT64_MAX);
  CHECK(sign_extend(0x1, 1) == -1);
  CHECK(sign_extend(0x0, 1) == 0);
  CHECK(sign_extend(0x1, 2) == 1);
  CHECK(sign_extend(0x2, 2) == -2);
  CHECK(sign_extend(0x3, 2) == -1);
}

TEST_CASE("floor_shift rounds toward minus infinity", "[arith]") {
  CHECK(i64(floor_shift(5, 1)) == 2);     // 2.5
  CHECK(i64(floor_shift(-5, 1)) == -3);   // -2.5
  CHECK(i64(floor_shift(-8, 2)) == -2);   // -2.0
  CHECK(i64(floor_shift(-7, 2)) == -2);   // -1.75
  CHECK(i64(floor_shift(7, 2)) == 1);     // 1.75
  CHECK(i64(floor_shift(1, 10)) == 0);
  CHECK(i64(floor_shift(-1, 10)) == -1);
  CHECK(i64(floor_shift(-123, 0)) == -123);
  CHECK(i64(floor_shift(p2(100), 98)) == 4);
  CHECK(i64(floor_shift(-p2(100), 99)) == -2);
  CHECK(i64(floor_shift(-p2(100) - 1, 100)) == -2);  // -1.000...
  CHECK(i64(floor_shift(kWideMin, 127)) == -1);
  CHECK(i64(floor_shift(kWideMax, 127)) == 0);
  CHECK(i64(floor_shift(-1, 127)) == -1);
  CHECK(i64(floor_shift(-1, 200)) == -1);
  CHECK(i64(floor_shift(p2(100), 200)) == 0);
}

TEST_CASE("rhaz_shift rounds half away from zero", "[arith]") {
  struct Row {
    int64_t v;
    int s;
    int64_t expect;
  };
  // expect = rhaz(v / 2^s), worked by hand: the quotient is in the comment.
  const Row rows[] = {
      {5, 1, 3},        // 2.5 -> 3
      {-5, 1, -3},      // -2.5 -> -3
      {3, 1, 2},        // 1.5 -> 2
      {-3, 1, -2},      // -1.5 -> -2
      {4, 1, 2},        // 2.0
      {1, 1, 1},        // 0.5 -> 1
      {-1, 1, -1},      // -0.5 -> -1
      {6, 2, 2},        // 1.5 -> 2
      {-6, 2, -2},      // -1.5 -> -2
      {7, 2, 2},        // 1.75 -> 2
      {-7, 2, -2},      // -1.75 -> -2
      {5, 2, 1},        // 1.25 -> 1
      {-5, 2, -1},      // -1.25 -> -1
      {2, 2, 1},        // 0.5 -> 1
      {-2, 2, -1},      // -0.5 -> -1
      {1, 2, 0},        // 0.25 -> 0
      {-1, 2, 0},       // -0.25 -> 0
      {0, 5, 0},        //
      {123, 0, 123},    // no shift
      {-123, 0, -123},  //
      {1000, 4, 63},    // 62.5 -> 63
      {-1000, 4, -63},  // -62.5 -> -63
      {999, 4, 62},     // 62.4375 -> 62
      {-999, 4, -62},   // -62.4375 -> -62
      {1001, 4, 63},    // 62.5625 -> 63
      {-1001, 4, -63},  // -62.5625 -> -63
      {-2147483648LL, 31, -1},  // -1.0
      {-1073741824LL, 31, -1},  // -0.5 -> -1
      {-1073741823LL, 31, 0},   // -0.4999... -> 0
      {1073741824LL, 31, 1},    // 0.5 -> 1
      {1073741823LL, 31, 0},    // 0.4999... -> 0
      {INT64_MAX, 62, 2},       // 1.99999... -> 2
      {INT64_MIN, 63, -1},      // -1.0
      {INT64_MIN, 64, -1},      // -0.5 -> -1
      {INT64_MIN, 65, 0},       // -0.25 -> 0
  };
  for (const Row& r : rows) {
    INFO("v=" << r.v << " s=" << r.s);
    CHECK(i64(rhaz_shift(r.v, r.s)) == r.expect);
  }
}

TEST_CASE("rhaz_shift on wide values and large shifts", "[arith]") {
  CHECK(i64(rhaz_shift(p2(100) + p2(99), 100)) == 2);       // 1.5 -> 2
  CHECK(i64(rhaz_shift(-(p2(100) + p2(99)), 100)) == -2);   // -1.5 -> -2
  CHECK(i64(rhaz_shift(p2(100) + p2(99) - 1, 100)) == 1);   // 1.4999... -> 1
  CHECK(i64(rhaz_shift(-(p2(100) + p2(99)) + 1, 100)) == -1);
  CHECK(i64(rhaz_shift(p2(87) - 1, 60)) == 134217728);      // 2^27 - 2^-60 -> 2^27
  CHECK(i64(rhaz_shift(p2(125), 126)) == 1);                // 0.5 -> 1
  CHECK(i64(rhaz_shift(-p2(125), 126)) == -1);              // -0.5 -> -1
  CHECK(i64(rhaz_shift(p2(125) - 1, 126)) == 0);            // just under 0.5
  CHECK(i64(rhaz_shift(-p2(125) + 1, 126)) == 0);
  CHECK(i64(rhaz_shift(p2(126), 127)) == 1);                // 0.5 -> 1
  CHECK(i64(rhaz_shift(-p2(126), 127)) == -1);              // -0.5 -> -1
  CHECK(i64(rhaz_shift(kWideMin, 127)) == -1);              // -1.0
  CHECK(i64(rhaz_shift(kWideMax, 127)) == 1);               // 0.99999... -> 1
  CHECK(i64(rhaz_shift(kWideMin, 128)) == -1);              // -0.5 -> -1
  CHECK(i64(rhaz_shift(kWideMax, 128)) == 0);               // 0.4999...
  CHECK(i64(rhaz_shift(kWideMin, 129)) == 0);               // -0.25
  CHECK(i64(rhaz_shift(-1, 300)) == 0);
  CHECK(hex(rhaz_shift(kWideMin, 1)) == hex(-p2(126)));     // -2^126 exactly
  CHECK(hex(rhaz_shift(kWideMax, 1)) == hex(p2(126)));      // 2^126 - 0.5 -> 2^126
  CHECK(hex(rhaz_shift(kWideMax, 0)) == hex(kWideMax));
  CHECK(hex(rhaz_shift(-p2(120) - p2(10), 11)) == hex(-p2(109) - 1));  // -(2^109 + 0.5) -> -(2^109 + 1)
  // constexpr-evaluable, so the compiler itself rejects any overflow on these paths.
  STATIC_REQUIRE(rhaz_shift(kWideMin, 128) == -1);
  STATIC_REQUIRE(rhaz_shift(kWideMin, 3) == -p2(124));
  STATIC_REQUIRE(rhaz_shift(kWideMax, 2) == p2(125));  // 2^125 - 0.25 -> 2^125
}

TEST_CASE("shift_right_sat: rhaz, saturate, RTL zero for huge shifts", "[arith]") {
  struct Row {
    int64_t v;
    int in_bits;
    int s;
    int out_bits;
    int64_t expect;
    bool saturated;
  };
  const Row rows[] = {
      {1000, 32, 4, 8, 63, false},     // 62.5 -> 63
      {2024, 32, 4, 8, 127, false},    // 126.5 -> 127
      {2040, 32, 4, 8, 127, true},     // 127.5 -> 128 -> clamp
      {5000, 32, 4, 8, 127, true},     // 312.5 -> 313 -> clamp
      {-2032, 32, 4, 8, -127, false},  // -127.0
      {-2040, 32, 4, 8, -128, false},  // -127.5 -> -128 fits
      {-2056, 32, 4, 8, -128, true},   // -128.5 -> -129 -> clamp
      {-5000, 32, 4, 8, -128, true},   // -312.5 -> -313 -> clamp
      {65535, 17, 0, 16, 32767, true}, // no shift, clamp 16 bits
      {-65536, 17, 1, 16, -32768, false},  // -32768.0
      {-65535, 17, 1, 16, -32768, false},  // -32767.5 -> -32768 fits
      {65535, 17, 1, 16, 32767, true},     // 32767.5 -> 32768 -> clamp
      // RTL: s >= in_bits gives 0 (cmod would round; equal except for -2^(iW-1) at s = iW).
      {12345, 16, 16, 32, 0, false},   // 0.188 -> 0 anyway
      {32767, 16, 16, 32, 0, false},   // 0.49998 -> 0 anyway
      {-32768, 16, 15, 32, -1, false}, // -1.0 (s < in_bits)
      {-32768, 16, 16, 32, 0, false},  // pathological: cmod -0.5 -> -1, RTL 0
      {-32768, 16, 17, 32, 0, false},
      {-32768, 16, 100, 32, 0, false},
      {-1, 8, 8, 8, 0, false},         // -1/256 -> 0
      {-128, 8, 8, 8, 0, false},       // -0.5: cmod -1, RTL 0
      {-128, 8, 7, 8, -1, false},      // -1.0
      {-64, 8, 7, 8, -1, false},       // -0.5 -> -1
  };
  for (const Row& r : rows) {
    INFO("v=" << r.v << " iW=" << r.in_bits << " s=" << r.s << " oW=" << r.out_bits);
    bool flag = !r.saturated;
    CHECK(shift_right_sat(r.v, r.in_bits, r.s, r.out_bits, &flag) == r.expect);
    CHECK(flag == r.saturated);
    CHECK(shift_right_sat(r.v, r.in_bits, r.s, r.out_bits) == r.expect);  // flag is optional
  }
}

TEST_CASE("shift_right_sat on wide inputs", "[arith]") {
  bool flag = true;
  CHECK(shift_right_sat(p2(80) + p2(79), 88, 80, 32, &flag) == 2);  // 1.5 -> 2
  CHECK_FALSE(flag);
  CHECK(shift_right_sat(-p2(87), 88, 87, 32, &flag) == -1);  // -1.0
  CHECK_FALSE(flag);
  CHECK(shift_right_sat(-p2(87), 88, 88, 32, &flag) == 0);  // pathological, RTL 0
  CHECK_FALSE(flag);
  CHECK(shift_right_sat(p2(87) - 1, 88, 60, 32, &flag) == 134217728);  // -> 2^27
  CHECK_FALSE(flag);
  CHECK(shift_right_sat(p2(87) - 1, 88, 60, 16, &flag) == 32767);
  CHECK(flag);
  CHECK(shift_right_sat(-p2(87), 88, 60, 16, &flag) == -32768);  // -2^27
  CHECK(flag);
  CHECK(shift_right_sat(p2(70), 88, 10, 64, &flag) == 1152921504606846976LL);  // 2^60
  CHECK_FALSE(flag);
  CHECK(shift_right_sat(p2(70), 88, 10, 32, &flag) == 2147483647);
  CHECK(flag);
}

TEST_CASE("signed_shift_sat: right with rhaz, left with saturation", "[arith]") {
  struct Row {
    int64_t v;
    int s;
    int out_bits;
    int64_t expect;
  };
  const Row rows[] = {
      {100, 2, 8, 25},            // 25.0
      {102, 2, 8, 26},            // 25.5 -> 26
      {-102, 2, 8, -26},          // -25.5 -> -26
      {-101, 2, 8, -25},          // -25.25 -> -25
      {100000, 4, 8, 127},        // 6250 -> clamp
      {-100000, 4, 8, -128},
      {5, 0, 8, 5},
      {300, 0, 8, 127},
      {-300, 0, 8, -128},
      {50, -1, 8, 100},           // 100
      {63, -1, 8, 126},           // 126
      {64, -1, 8, 127},           // 128 -> clamp
      {100, -1, 8, 127},          // 200 -> clamp
      {-64, -1, 8, -128},         // -128 fits
      {-65, -1, 8, -128},         // -130 -> clamp
      {-3, -4, 8, -48},
      {1, -31, 32, 2147483647},   // 2^31 -> clamp
      {-1, -31, 32, -2147483648LL},  // -2^31 fits
      {1, -62, 64, 4611686018427387904LL},  // 2^62
      {1, -63, 64, INT64_MAX},    // 2^63 -> clamp
      {-1, -63, 64, INT64_MIN},   // -2^63 fits
      {1, -64, 64, INT64_MAX},
      {-1, -64, 64, INT64_MIN},
      {3, -200, 16, 32767},
      {-3, -200, 16, -32768},
      {0, -100, 32, 0},
      {0, -5, 8, 0},
  };
  for (const Row& r : rows) {
    INFO("v=" << r.v << " s=" << r.s << " oW=" << r.out_bits);
    CHECK(signed_shift_sat(r.v, r.s, r.out_bits) == r.expect);
  }
  // Wide values shifted left must saturate, not overflow the 128-bit intermediate.
  CHECK(signed_shift_sat(p2(100), -40, 32) == 2147483647);
  CHECK(signed_shift_sat(-p2(100), -40, 32) == -2147483648LL);
  CHECK(signed_shift_sat(p2(70), -63, 64) == INT64_MAX);
  CHECK(signed_shift_sat(kWideMin, -1, 64) == INT64_MIN);
  CHECK(signed_shift_sat(kWideMax, -63, 64) == INT64_MAX);
  CHECK(signed_shift_sat(p2(90) + p2(89), 90, 16) == 2);  // 1.5 -> 2
  STATIC_REQUIRE(signed_shift_sat(kWideMin, -63, 64) == INT64_MIN);
  STATIC_REQUIRE(signed_shift_sat(kWideMax, -1, 64) == INT64_MAX);
}

TEST_CASE("shift_left_sat", "[arith]") {
  CHECK(shift_left_sat(1, 0, 8) == 1);
  CHECK(shift_left_sat(3, 4, 32) == 48);
  CHECK(shift_left_sat(-3, 4, 8) == -48);
  CHECK(shift_left_sat(5, 5, 8) == 127);     // 160 -> clamp
  CHECK(shift_left_sat(-5, 5, 8) == -128);   // -160 -> clamp
  CHECK(shift_left_sat(4, 5, 8) == 127);     // 128 -> clamp
  CHECK(shift_left_sat(-4, 5, 8) == -128);   // -128 fits
  // IntShiftLeft<16,6,32>: 16-bit input, up to 63 left, 32-bit output.
  CHECK(shift_left_sat(32767, 16, 32) == 2147418112);       // 0x7FFF0000
  CHECK(shift_left_sat(-32768, 16, 32) == -2147483648LL);   // -0x80000000 fits
  CHECK(shift_left_sat(32767, 17, 32) == 2147483647);       // 0xFFFE0000 -> clamp
  CHECK(shift_left_sat(-32768, 17, 32) == -2147483648LL);   // -2^32 -> clamp
  CHECK(shift_left_sat(1, 63, 32) == 2147483647);
  CHECK(shift_left_sat(-1, 63, 32) == -2147483648LL);
  CHECK(shift_left_sat(0, 63, 32) == 0);
}
