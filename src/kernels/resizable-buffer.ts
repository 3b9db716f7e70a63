/**
 * ES2024's resizable ArrayBuffer, which Node.js 20 has and the project's lib (ES2023) does not
 * declare: memory that grows in place and is given back at once when shrunk (the dictionaries'
 * loading buffers, dictionaries/).
 */
export interface ResizableArrayBuffer extends ArrayBuffer {
  resize(byteLength: number): void;
}

export const ResizableArrayBuffer = ArrayBuffer as unknown as new (byteLength: number, options: { maxByteLength: number }) => ResizableArrayBuffer;
