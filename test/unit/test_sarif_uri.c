/* The URI of a SARIF artifact (cli_sarif_uri, source/tools/report_sarif.c): relative paths stay
 * relative references with forward slashes, absolute ones become file: URIs, Windows drive and
 * UNC paths take RFC 8089's form (file:///C:/dir/a.spv, file://host/share/a.spv), and what is not
 * a URI character is percent-encoded.  Both path flavours are checked on every host; the last
 * test checks that the CLI's own SARIF names an input by the host's flavour (Windows paths in the
 * MinGW-w64 build, run under Wine by ctest -L cross). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"

/* cli_sarif_uri(path, windows) as a C string, without the JSON quotes. */
static char *uri_of(const char *path, bool windows)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = cli_memstream_open(&buf, &len);
    assert_non_null(f);
    cli_sarif_uri(f, path, windows);
    assert_int_equal(cli_memstream_close(f, &buf, &len), 0);
    assert_non_null(buf);
    assert_true(len >= 2 && buf[0] == '"' && buf[len - 1] == '"');
    memmove(buf, buf + 1, len - 2);
    buf[len - 2] = '\0';
    return buf;
}

typedef struct uri_case {
    bool windows; /* the path is the Windows build's */
    const char *path, *uri;
} uri_case;

static const uri_case cases[] = {
    {false, "a.spv", "a.spv"},
    {false, "dir/sub/a.spv", "dir/sub/a.spv"},
    {false, "../a.spv", "../a.spv"},
    {false, "/abs/dir/a.spv", "file:///abs/dir/a.spv"},
    {false, "dir/a b#1%.spv", "dir/a%20b%231%25.spv"},
    {false, "x:y.spv", "x%3Ay.spv"}, /* never a scheme */
    /* On POSIX a backslash and "C:" are parts of a file name. */
    {false, "dir\\a.spv", "dir%5Ca.spv"},
    {false, "C:/dir/a.spv", "C%3A/dir/a.spv"},
    {false, "\xc3\xa9t\xc3\xa9.spv", "%C3%A9t%C3%A9.spv"},
    {false, "", ""},
    {true, "C:\\dir\\a.spv", "file:///C:/dir/a.spv"},
    {true, "C:/dir/a.spv", "file:///C:/dir/a.spv"},
    {true, "c:\\My Shaders\\a.spv", "file:///c:/My%20Shaders/a.spv"},
    {true, "dir\\sub\\a.spv", "dir/sub/a.spv"},
    {true, "dir/sub\\a.spv", "dir/sub/a.spv"},
    {true, "..\\a.spv", "../a.spv"},
    {true, "a.spv", "a.spv"},
    {true, "\\\\host\\share\\a.spv", "file://host/share/a.spv"},
    {true, "//host/share/a.spv", "file://host/share/a.spv"},
    {true, "\\\\?\\C:\\dir\\a.spv", "file:///C:/dir/a.spv"},
    {true, "\\\\?\\UNC\\host\\share\\a.spv", "file://host/share/a.spv"},
    {true, "\\dir\\a.spv", "file:///dir/a.spv"}, /* the current drive's root */
    {true, "/dir/a.spv", "file:///dir/a.spv"},
    {true, "C:a.spv", "C%3Aa.spv"}, /* relative to drive C's directory: no URI form */
    {true, "x:y", "x%3Ay"},
};

/* Every path of both flavours, on every host. */
static void uris(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char *got = uri_of(cases[i].path, cases[i].windows);
        if (strcmp(got, cases[i].uri))
            fail_msg("%s path \"%s\": URI \"%s\", expected \"%s\"",
                     cases[i].windows ? "Windows" : "POSIX", cases[i].path, got, cases[i].uri);
        free(got);
    }
}

/* The CLI's SARIF log names input C:\dir\a.spv by the host's flavour. */
static void host_flavour(void **state)
{
    (void)state;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = cli_memstream_open(&buf, &len);
    assert_non_null(f);
    cli_file_result r;
    memset(&r, 0, sizeof r);
    r.path = "C:\\dir\\a.spv";
    cli_sarif_write_log(f, &r, 1);
    assert_int_equal(cli_memstream_close(f, &buf, &len), 0);
    assert_non_null(buf);
#ifdef _WIN32
    const char *want = "\"uri\":\"file:///C:/dir/a.spv\"";
#else
    const char *want = "\"uri\":\"C%3A%5Cdir%5Ca.spv\"";
#endif
    if (!strstr(buf, want)) fail_msg("the SARIF log does not hold %s:\n%s", want, buf);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(uris), cmocka_unit_test(host_flavour)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
