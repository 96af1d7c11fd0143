# SPDX-License-Identifier: BSL-1.0
"""Conan 2 recipe of pksk, a header-only library.

`conan create .` packages the checkout (no remote needed for pksk itself). The dependencies
come from Conan Center, or, with conan/profiles/debian, from the system's Debian packages as
platform requirements (see docs/building.md).
"""
import os
import re

from conan import ConanFile
from conan.tools.files import copy, load
from conan.tools.layout import basic_layout


class PkskConan(ConanFile):
    name = "pksk"
    description = "Typed DynamoDB-style item collections for C++20, on SQLite and DynamoDB"
    license = "BSL-1.0"
    topics = ("dynamodb", "sqlite", "single-table-design", "header-only")
    package_type = "header-library"
    settings = "os", "arch", "compiler", "build_type"
    options = {"with_sqlite": [True, False], "with_dynamodb": [True, False],
               "with_zstd": [True, False]}
    default_options = {"with_sqlite": True, "with_dynamodb": False, "with_zstd": False}
    no_copy_source = True
    exports_sources = "include/*", "LICENSE*"

    def set_version(self):
        # One version, written in include/pksk/version.hpp (CMakeLists.txt reads it too).
        header = os.path.join("include", "pksk", "version.hpp")
        text = load(self, os.path.join(self.recipe_folder, header))
        parts = []
        for part in ("MAJOR", "MINOR", "PATCH"):
            match = re.search(rf"^#define PKSK_VERSION_{part} (\d+)$", text, re.MULTILINE)
            if not match:
                raise ValueError(f"no '#define PKSK_VERSION_{part} <number>' in {header}")
            parts.append(match.group(1))
        self.version = ".".join(parts)

    def layout(self):
        basic_layout(self, src_folder=".")

    def requirements(self):
        self.requires("boost/[>=1.81]", transitive_headers=True)
        self.requires("simdjson/[>=3.0]", transitive_headers=True, transitive_libs=True)
        if self.options.with_sqlite:
            self.requires("sqlite3/[>=3.37]", transitive_headers=True, transitive_libs=True)
        if self.options.with_dynamodb:
            # SigV4's HMAC-SHA256 is pksk's own (include/pksk/detail/), so no OpenSSL here.
            self.requires("libcurl/[>=7.78]", transitive_headers=True, transitive_libs=True)
        if self.options.with_zstd:
            # Compressed members (Entity<T>::compressed): only their programs link libzstd.
            self.requires("zstd/[>=1.4]", transitive_headers=True, transitive_libs=True)

    def validate(self):
        from conan.tools.build import check_min_cppstd

        if self.settings.get_safe("compiler.cppstd"):
            check_min_cppstd(self, 20)

    def package_id(self):
        self.info.clear()

    def package(self):
        copy(self, "*", os.path.join(self.source_folder, "include"),
             os.path.join(self.package_folder, "include"))
        copy(self, "LICENSE*", self.source_folder, os.path.join(self.package_folder, "licenses"))

    def package_info(self):
        self.cpp_info.set_property("cmake_file_name", "pksk")
        self.cpp_info.set_property("pkg_config_name", "pksk-all")
        self.cpp_info.bindirs = []
        self.cpp_info.libdirs = []

        # A dependency that the profile maps to the system ([platform_requires]) is no Conan
        # package: it has no cpp_info, and a component may not require it. Its consumer
        # finds it as the system's own (find_package(Boost), pkg-config simdjson, ...), as
        # test_package/CMakeLists.txt shows; a Conan Center dependency is required here.
        packaged = {dep.ref.name for dep in self.dependencies.host.values()}

        def requires(*references):
            return [r for r in references if "::" not in r or r.split("::")[0] in packaged]

        core = self.cpp_info.components["pksk"]
        core.set_property("cmake_target_name", "pksk::pksk")
        core.set_property("pkg_config_name", "pksk-core")
        core.requires = requires("boost::headers", "simdjson::simdjson")
        core.bindirs = []
        core.libdirs = []

        if self.options.with_sqlite:
            sqlite = self.cpp_info.components["sqlite"]
            sqlite.set_property("cmake_target_name", "pksk::sqlite")
            sqlite.set_property("pkg_config_name", "pksk")
            sqlite.requires = requires("pksk", "sqlite3::sqlite")
            sqlite.bindirs = []
            sqlite.libdirs = []
            sqlite.includedirs = []

        if self.options.with_dynamodb:
            dynamodb = self.cpp_info.components["dynamodb"]
            dynamodb.set_property("cmake_target_name", "pksk::dynamodb")
            dynamodb.set_property("pkg_config_name", "pksk-dynamodb")
            dynamodb.requires = requires("pksk", "libcurl::curl")
            dynamodb.bindirs = []
            dynamodb.libdirs = []
            dynamodb.includedirs = []

        if self.options.with_zstd:
            zstd = self.cpp_info.components["zstd"]
            zstd.set_property("cmake_target_name", "pksk::zstd")
            zstd.set_property("pkg_config_name", "pksk-zstd")
            # What tells the headers the program links libzstd (codec/compressed.hpp).
            zstd.defines = ["PKSK_ZSTD=1"]
            zstd.requires = requires("pksk", "zstd::zstdlib")
            zstd.bindirs = []
            zstd.libdirs = []
            zstd.includedirs = []
